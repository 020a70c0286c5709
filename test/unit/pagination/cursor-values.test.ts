import { describe, expect, it } from "vitest";
import { checkKeyValue } from "../../../src/pagination/cursor-values.js";

describe("checkKeyValue", () => {
  it("passes every value a cursor can carry", () => {
    const date = new Date("2026-01-02T03:04:05.678Z");
    for (const value of ["a", 1.5, false, null, -(2n ** 70n), date]) expect(checkKeyValue(value)).toBe(value);
  });

  it.each([
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [undefined, "undefined"],
    [{ id: 1 }, "Object"],
    [[1], "Array"],
    [new Map(), "Map"],
    [Symbol("s"), "symbol"],
    [() => 1, "function"],
    [new Date(Number.NaN), "an invalid Date"],
  ])("refuses %s, saying what it got", (value, described) => {
    expect(() => checkKeyValue(value)).toThrow(TypeError);
    expect(() => checkKeyValue(value)).toThrow(
      `a stable key value must be a string, number, boolean, bigint, Date or null, not ${described}`,
    );
  });

  it("describes an object without a prototype", () => {
    expect(() => checkKeyValue(Object.create(null))).toThrow(/not object$/);
  });
});
