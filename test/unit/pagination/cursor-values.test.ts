import { describe, expect, it } from "vitest";
import { decodeKeyValue, encodeKeyValue, type KeyValue } from "../../../src/pagination/cursor-values.js";

/** What a value looks like after a trip through a cursor's JSON payload. */
const roundTrip = (value: KeyValue) => decodeKeyValue(JSON.parse(JSON.stringify(encodeKeyValue(value))));

describe("encodeKeyValue", () => {
  it("passes JSON scalars through and tags dates and bigints", () => {
    expect(encodeKeyValue("a")).toBe("a");
    expect(encodeKeyValue(1.5)).toBe(1.5);
    expect(encodeKeyValue(false)).toBe(false);
    expect(encodeKeyValue(null)).toBeNull();
    expect(encodeKeyValue(new Date("2026-01-02T03:04:05.678Z"))).toEqual({ $d: "2026-01-02T03:04:05.678Z" });
    expect(encodeKeyValue(-(2n ** 70n))).toEqual({ $b: "-1180591620717411303424" });
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
  ])("refuses %s, saying what it got", (value, described) => {
    expect(() => encodeKeyValue(value)).toThrow(TypeError);
    expect(() => encodeKeyValue(value)).toThrow(
      `a stable key value must be a string, number, boolean, bigint, Date or null, not ${described}`,
    );
  });

  it("describes an object without a prototype", () => {
    expect(() => encodeKeyValue(Object.create(null))).toThrow(/not object$/);
  });
});

describe("decodeKeyValue", () => {
  it.each<KeyValue>([
    "",
    "é and 😀",
    '{"$d":"not a tag"}',
    0,
    -12.25,
    Number.MAX_SAFE_INTEGER,
    true,
    null,
    2n ** 100n,
    -1n,
    0n,
  ])("round-trips %s through JSON", (value) => {
    expect(roundTrip(value)).toBe(value);
  });

  it("round-trips a date as a Date at the same instant", () => {
    const date = new Date("1969-07-20T20:17:40.000Z");
    const back = roundTrip(date);
    expect(back).toBeInstanceOf(Date);
    expect((back as Date).getTime()).toBe(date.getTime());
  });

  it("keeps a string that looks like a tagged value a string", () => {
    expect(roundTrip("$d")).toBe("$d");
    expect(typeof roundTrip("123")).toBe("string");
  });

  it.each([
    ["undefined", undefined],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["an array", ["a"]],
    ["an empty object", {}],
    ["an unparseable date", { $d: "yesterday-ish" }],
    ["a numeric date tag", { $d: 0 }],
    ["a decimal bigint", { $b: "1.5" }],
    ["a bigint with letters", { $b: "12abc" }],
    ["an empty bigint", { $b: "" }],
    ["a numeric bigint tag", { $b: 12 }],
    ["a function", () => 1],
  ])("refuses %s", (_, encoded) => {
    expect(() => decodeKeyValue(encoded)).toThrow(new TypeError("malformed key value"));
  });
});
