import { describe, expect, it } from "vitest";
import { pickFields } from "../../../src/pagination/pick-fields.js";

describe("pickFields", () => {
  it("keeps only the requested fields an object has, in the requested order, as a copy", () => {
    const item = { id: 1, title: "a", body: "long", tags: undefined };
    const picked = pickFields(item, ["title", "id", "missing", "tags"]);
    expect(picked).toEqual({ title: "a", id: 1 });
    expect(Object.keys(picked as object)).toEqual(["title", "id"]);
    expect(item).toEqual({ id: 1, title: "a", body: "long", tags: undefined });
  });

  it("keeps falsy values that are there", () => {
    expect(pickFields({ a: 0, b: "", c: null, d: false }, ["a", "b", "c", "d"])).toEqual({
      a: 0,
      b: "",
      c: null,
      d: false,
    });
  });

  it("returns anything that is not a plain object unchanged", () => {
    const list = [{ id: 1 }];
    expect(pickFields(list, ["id"])).toBe(list);
    for (const value of [null, 3, "text", undefined]) expect(pickFields(value, ["id"])).toBe(value);
  });
});
