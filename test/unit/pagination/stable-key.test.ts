import { describe, expect, it } from "vitest";
import type { KeyValue } from "../../../src/pagination/cursor-values.js";
import { compareKeys, describeKeySpec, type KeySpec, keyOf } from "../../../src/pagination/stable-key.js";

const asc = (...fields: string[]): KeySpec => ({ fields, order: "asc" });
const desc = (...fields: string[]): KeySpec => ({ fields, order: "desc" });
/** Compares two single-field keys under `k:asc`. */
const cmp = (a: KeyValue, b: KeyValue) => compareKeys({ k: a }, { k: b }, asc("k"));

describe("describeKeySpec", () => {
  it("joins the fields and the order", () => {
    expect(describeKeySpec(asc("updatedAt", "slug"))).toBe("updatedAt,slug:asc");
    expect(describeKeySpec(desc("id"))).toBe("id:desc");
  });
});

describe("keyOf", () => {
  it("keeps only the key fields, in the spec's order", () => {
    const at = new Date("2026-01-01T00:00:00Z");
    const key = keyOf({ slug: "a", body: "long text", updatedAt: at }, asc("updatedAt", "slug"), 0);
    expect(key).toEqual({ updatedAt: at, slug: "a" });
    expect(Object.keys(key)).toEqual(["updatedAt", "slug"]);
    expect(key.updatedAt).toBe(at);
  });

  it("accepts null and falsy key values; only a missing field is an error", () => {
    expect(keyOf({ a: null, b: 0, c: "", d: false }, asc("a", "b", "c", "d"), 0)).toEqual({
      a: null,
      b: 0,
      c: "",
      d: false,
    });
  });

  it("names the position and the missing field", () => {
    expect(() => keyOf({ slug: "a" }, asc("updatedAt", "slug"), 7)).toThrow(
      'item 7 has no "updatedAt", a field of its @Paginated stable key (updatedAt, slug); select it in the query',
    );
    expect(() => keyOf({ id: undefined }, asc("id"), 0)).toThrow('item 0 has no "id"');
  });

  it("refuses items that are not objects, naming what they are", () => {
    expect(() => keyOf(null, asc("id"), 2)).toThrow(/^item 2 is null, but @Paginated items must be objects/);
    expect(() => keyOf("x", asc("id"), 0)).toThrow(/^item 0 is string/);
    expect(() => keyOf(42, asc("id"), 0)).toThrow(/^item 0 is number/);
    expect(() => keyOf(undefined, asc("id"), 0)).toThrow(/^item 0 is undefined/);
  });
});

describe("compareKeys", () => {
  it("orders numbers numerically, not as text", () => {
    expect(cmp(2, 10)).toBeLessThan(0);
    expect(cmp(-1, 0)).toBeLessThan(0);
    expect(cmp(1.5, 1.25)).toBeGreaterThan(0);
    expect(cmp(3, 3)).toBe(0);
  });

  it("orders bigints numerically, beyond the safe integer range, and against numbers", () => {
    expect(cmp(2n ** 64n, 2n ** 64n + 1n)).toBeLessThan(0);
    expect(cmp(-(2n ** 70n), 0n)).toBeLessThan(0);
    expect(cmp(1n, 2)).toBeLessThan(0);
    expect(cmp(3n, 2.5)).toBeGreaterThan(0);
    expect(cmp(5n, 5n)).toBe(0);
  });

  it("orders dates by instant, not by identity", () => {
    expect(cmp(new Date(1_000), new Date(1_000))).toBe(0);
    expect(cmp(new Date(1_000), new Date(2_000))).toBe(-1);
    expect(cmp(new Date("2026-01-02T00:00:00Z"), new Date("2025-12-31T23:59:59Z"))).toBe(1);
  });

  it('orders strings by UTF-16 code unit, like COLLATE "C"', () => {
    expect(cmp("Z", "a")).toBeLessThan(0); // uppercase before lowercase
    expect(cmp("z", "é")).toBeLessThan(0); // no locale collation
    expect(cmp("a", "ab")).toBeLessThan(0);
    // 😀 is U+1F600, but its first code unit (0xD83D) sorts before U+FFFF.
    expect(cmp("😀", "\uffff")).toBeLessThan(0);
  });

  it("orders booleans false first and null before everything", () => {
    expect(cmp(false, true)).toBeLessThan(0);
    expect(cmp(null, false)).toBeLessThan(0);
    expect(cmp(null, "")).toBeLessThan(0);
    expect(cmp(null, null)).toBe(0);
  });

  it("orders values of different kinds by kind, so the order is total", () => {
    const ascending: KeyValue[] = [null, false, true, -5, 1n, 7, new Date(0), new Date(10), "", "0", "a"];
    for (let i = 0; i < ascending.length; i++) {
      for (let j = 0; j < ascending.length; j++) {
        const expected = Math.sign(i - j);
        expect(Math.sign(cmp(ascending[i] as KeyValue, ascending[j] as KeyValue)), `${i} vs ${j}`).toBe(
          expected,
        );
      }
    }
  });

  it("treats a missing field as null", () => {
    expect(compareKeys({}, { k: null }, asc("k"))).toBe(0);
    expect(compareKeys({}, { k: 0 }, asc("k"))).toBeLessThan(0);
  });

  it("breaks ties on the next field and ignores fields outside the spec", () => {
    const spec = asc("day", "id");
    expect(compareKeys({ day: 1, id: 2 }, { day: 1, id: 3 }, spec)).toBeLessThan(0);
    expect(compareKeys({ day: 2, id: 1 }, { day: 1, id: 9 }, spec)).toBeGreaterThan(0);
    expect(compareKeys({ day: 1, id: 2, x: "a" }, { day: 1, id: 2, x: "b" }, spec)).toBe(0);
  });

  it("reverses every field, and the kind order, when descending", () => {
    const spec = desc("day", "id");
    expect(compareKeys({ day: 1, id: 2 }, { day: 1, id: 3 }, spec)).toBeGreaterThan(0);
    expect(compareKeys({ day: 2, id: 1 }, { day: 1, id: 9 }, spec)).toBeLessThan(0);
    expect(compareKeys({ k: null }, { k: 1 }, desc("k"))).toBeGreaterThan(0);
  });

  it("sorts any shuffle of the same keys to the same order", () => {
    const keys: Array<Record<string, KeyValue>> = [
      { t: new Date(5), id: "b" },
      { t: new Date(5), id: "a" },
      { t: null, id: "z" },
      { t: new Date(1), id: "c" },
      { t: new Date(9), id: "a" },
    ];
    const spec = asc("t", "id");
    const sorted = [...keys].sort((a, b) => compareKeys(a, b, spec));
    expect(sorted.map((k) => k.id)).toEqual(["z", "c", "a", "b", "a"]);
    expect([...keys].reverse().sort((a, b) => compareKeys(a, b, spec))).toEqual(sorted);
  });
});
