import { describe, expect, it } from "vitest";
import { checkCatalogueOptions } from "../../../src/catalogue/catalogue-options.js";

describe("checkCatalogueOptions", () => {
  it("fills defaults", () => {
    expect(checkCatalogueOptions(undefined)).toEqual({ search: false, pinned: [] });
    expect(checkCatalogueOptions({ search: true, pinned: ["a"] })).toEqual({ search: true, pinned: ["a"] });
  });

  it("refuses a bad shape, naming the option and the fix", () => {
    expect(() => checkCatalogueOptions("search")).toThrow("`catalogue` must be an object");
    expect(() => checkCatalogueOptions({ search: 1 })).toThrow(
      "`catalogue.search` must be true or false, not 1",
    );
    expect(() => checkCatalogueOptions({ search: true, pinned: [1] })).toThrow(
      '`catalogue.pinned` must be an array of tool names. Fix: e.g. pinned: ["get_status"]',
    );
    expect(() => checkCatalogueOptions({ pinned: ["a"] })).toThrow("add `search: true`, or drop `pinned`");
  });
});
