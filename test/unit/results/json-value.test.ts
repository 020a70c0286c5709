import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonReplacer, toJsonValue } from "../../../src/results/json-value.js";

/** What shaping did before `toJsonValue`: write the text with the replacer, read it back. */
const viaText = (value: unknown) => {
  const text = JSON.stringify(value, jsonReplacer);
  return text === undefined ? undefined : JSON.parse(text);
};

describe("toJsonValue", () => {
  it("gives what JSON.stringify with the bigint replacer, read back, gives", () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
      get norm() {
        return Math.hypot(this.x, this.y);
      }
    }
    const samples: unknown[] = [
      { at: new Date(Date.UTC(2026, 0, 2)), n: 12n, skip: undefined, f: () => 1, s: Symbol("x") },
      [undefined, () => 1, Symbol("y"), Number.NaN, Number.POSITIVE_INFINITY, -0, 1e21, 2n ** 70n],
      { nested: { list: [{ a: null }, [], {}], when: [new Date(0)] } },
      { toJSON: (key: string) => ({ key }) },
      { inner: { toJSON: (key: string) => `key was ${key}` }, list: [{ toJSON: (key: string) => key }] },
      new Point(3, 4),
      Object.assign(Object.create({ inherited: 1 }), { own: 2 }),
      [new Number(1), new String("s"), new Boolean(false)],
      new Map([["a", 1]]),
      new Set([1]),
      Uint8Array.of(1, 2),
      "text",
      42,
      null,
      true,
      undefined,
      () => 1,
      10n,
      JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'),
      { [Symbol("hidden")]: 1, visible: 2 },
    ];
    for (const sample of samples) expect(toJsonValue(sample)).toStrictEqual(viaText(sample));
  });

  it("agrees on any JSON-like value, dates and bigints included (seeded)", () => {
    const leaf = fc.oneof(
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.bigInt(),
      fc.date({ noInvalidDate: true }),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("node")),
        fc.dictionary(fc.string(), tie("node")),
      ),
    })).node;
    fc.assert(
      fc.property(value, (sample) => {
        expect(toJsonValue(sample)).toStrictEqual(viaText(sample));
      }),
      { seed: 2026, numRuns: 500 },
    );
  });

  it("throws on a cycle, as JSON.stringify does, and shares nothing with the value", () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = { back: cyclic };
    expect(() => toJsonValue(cyclic)).toThrow(TypeError);
    // The same object twice, not in a cycle, is fine.
    const shared = { x: 1 };
    const value = { a: shared, b: [shared] };
    const json = toJsonValue(value) as { a: unknown; b: unknown[] };
    expect(json).toEqual({ a: { x: 1 }, b: [{ x: 1 }] });
    expect(json.a).not.toBe(shared);
    shared.x = 2;
    expect(json.a).toEqual({ x: 1 });
  });

  it("keeps an own __proto__ key as an own property, as JSON.parse does", () => {
    const json = toJsonValue(JSON.parse('{"__proto__": {"p": 1}}')) as object;
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect(Object.keys(json)).toEqual(["__proto__"]);
  });
});
