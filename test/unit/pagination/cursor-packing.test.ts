import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pack, unpack } from "../../../src/pagination/cursor-packing.js";
import type { KeyValue } from "../../../src/pagination/cursor-values.js";

const roundTrip = (values: KeyValue[], state: Array<[string, KeyValue]> = []) =>
  unpack(pack(values, state), values.length);

/** Every kind of value a key can hold, as fast-check makes them. */
const keyValue: fc.Arbitrary<KeyValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: "binary", maxLength: 80 }),
  fc.string({ unit: fc.constantFrom(..."abcXYZ09-_"), maxLength: 80 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }),
  fc.date({ noInvalidDate: true }),
);

describe("pack / unpack", () => {
  it.each<[string, KeyValue]>([
    ["null", null],
    ["false", false],
    ["true", true],
    ["0", 0],
    ["30 (in the tag)", 30],
    ["31 (the first past the tag)", 31],
    ["a large integer", Number.MAX_SAFE_INTEGER],
    ["the smallest integer", Number.MIN_SAFE_INTEGER],
    ["-1", -1],
    ["a fraction", -12.25],
    ["a number past the safe integers", 2 ** 60],
    ["an empty string", ""],
    ["a slug (six bits a character)", "intro-to_paging-2026"],
    ["text", "é and 😀, with spaces"],
    ["31 UTF-8 bytes", "x".repeat(31)],
    ["32 UTF-8 bytes", "é".repeat(16)],
    ["a long string", "a b".repeat(300)],
    ["a lone surrogate", "a\uD800b"],
    ["a bigint", 2n ** 70n],
    ["a negative bigint", -(2n ** 200n)],
    ["bigint 0", 0n],
  ])("round-trips %s", (_, value) => {
    expect(roundTrip([value]).values[0]).toStrictEqual(value);
  });

  it("round-trips dates, before 1970 and at the ends of time, as Dates", () => {
    for (const ms of [0, Date.UTC(2026, 0, 2, 3, 4, 5, 678), -14_182_940_000, 8.64e15, -8.64e15]) {
      const [back] = roundTrip([new Date(ms)]).values;
      expect(back).toBeInstanceOf(Date);
      expect((back as Date).getTime()).toBe(ms);
    }
  });

  it("keeps the key values apart from the state that follows them", () => {
    const state: Array<[string, KeyValue]> = [
      ["s", new Date(5)],
      ["u", null],
      ["p", 4],
      ["answers", '[{"action":"accept"}]'],
    ];
    expect(roundTrip([7, "a"], state)).toEqual({
      values: [7, "a"],
      state: { s: new Date(5), u: null, p: 4, answers: '[{"action":"accept"}]' },
    });
    expect(roundTrip([], [["p", 2]])).toEqual({ values: [], state: { p: 2 } });
  });

  it("round-trips any values and state (property)", () => {
    fc.assert(
      fc.property(
        fc.array(keyValue, { maxLength: 4 }),
        fc.array(fc.tuple(fc.string({ maxLength: 8 }), keyValue), { maxLength: 3 }),
        (values, state) => {
          const unique = [...new Map(state)];
          const back = roundTrip(values, unique);
          expect(back.values).toStrictEqual(values);
          expect(back.state).toStrictEqual(Object.fromEntries(unique));
        },
      ),
      { seed: 24, numRuns: 500 },
    );
  });

  it("packs a value into what it holds and one byte", () => {
    expect(pack([5000], []).length).toBe(3);
    expect(pack(["cache-report-ord"], []).length).toBe(13); // 16 characters, 6 bits each
    expect(pack(["é".repeat(16)], []).length).toBe(33); // 32 bytes of UTF-8
    expect(pack([new Date(Date.UTC(2026, 0, 1))], []).length).toBe(7);
    expect(pack([null, true], []).length).toBe(2);
  });

  it("refuses bytes it did not write", () => {
    for (const bytes of [
      [],
      [0xe0], // a bigint of 32 bytes, none there
      [0x07], // atom 7
      [0x3f], // an integer whose LEB128 is missing
      [0x3f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], // past 2^53
      [0x83], // 3 bytes of text, none there
      [0x03, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0], // float: Infinity
      [0x05, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f], // a date past the end of time (2^53 − 1 ms)
    ]) {
      expect(() => unpack(Buffer.from(bytes), 1), JSON.stringify(bytes)).toThrow(RangeError);
    }
  });
});
