import { describe, expect, it } from "vitest";
import { FrugalConfigError } from "../../../src/errors/config-error.js";
import { checkAppBudget, checkAppText } from "../../../src/runtime/app-option-checks.js";

describe("app option checks", () => {
  it("accepts a missing or valid text format and refuses others, naming the option", () => {
    expect(checkAppText(undefined)).toBeUndefined();
    expect(checkAppText("json")).toBe("json");
    expect(() => checkAppText("xml")).toThrow(FrugalConfigError);
    expect(() => checkAppText("xml")).toThrow(/McpFactory\.create options[\s\S]*`text`/);
  });

  it("accepts a missing or positive whole budget and refuses others, with the fix", () => {
    expect(checkAppBudget(undefined)).toBeUndefined();
    expect(checkAppBudget(2000)).toBe(2000);
    expect(() => checkAppBudget(0)).toThrow(FrugalConfigError);
    expect(() => checkAppBudget(1.5)).toThrow(/budget: 2000/);
  });
});
