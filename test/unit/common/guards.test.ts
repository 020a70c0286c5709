import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldOf, isObject, isRequestId } from "../../../src/common/guards.js";

describe("isObject", () => {
  it("is true for objects and arrays, false for null, primitives and functions", () => {
    expect([{}, [], new Date(), Object.create(null)].map(isObject)).toEqual([true, true, true, true]);
    expect([null, undefined, 0, "a", true, 1n, Symbol("s"), () => 1].map(isObject)).toEqual(
      Array(8).fill(false),
    );
  });
});

describe("fieldOf", () => {
  it("reads a field as optional chaining would, without throwing on null or undefined", () => {
    expect(fieldOf({ code: "ENOENT" }, "code")).toBe("ENOENT");
    expect(fieldOf(null, "code")).toBeUndefined();
    expect(fieldOf(undefined, "code")).toBeUndefined();
    expect(fieldOf("abc", "length")).toBe(3);
    expect(fieldOf(["x"], 0)).toBe("x");
    const key = Symbol("k");
    expect(fieldOf({ [key]: 1 }, key)).toBe(1);
  });

  it("agrees with `value?.[key]` on any JSON value (fixed seed)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, key) => {
        const expected = (value as Record<string, unknown> | null | undefined)?.[key];
        expect(fieldOf(value, key)).toBe(expected);
      }),
      { seed: 29 },
    );
  });
});

describe("isRequestId", () => {
  it("accepts strings and numbers only", () => {
    expect([1, "a", 0].every(isRequestId)).toBe(true);
    expect([null, undefined, {}, true].some(isRequestId)).toBe(false);
  });
});
