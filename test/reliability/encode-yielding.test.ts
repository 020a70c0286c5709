import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeContent } from "../../src/ephemeral/content-index.js";
import { encodeContentYielding } from "../../src/ephemeral/encode-yielding.js";

/** Tiny thresholds, so every path (walked arrays, objects, chunked text) runs on small values. */
const TINY = { sliceMs: 0, smallItems: 1, smallText: 1, smallNodes: 2 };

async function same(value: unknown, mimeType?: string) {
  const expected = encodeContent(value, mimeType);
  for (const tuning of [TINY, {}]) {
    const actual = await encodeContentYielding(value, mimeType, tuning);
    expect(actual.kind).toBe(expected.kind);
    expect(actual.mimeType).toBe(expected.mimeType);
    expect(actual.total).toBe(expected.total);
    expect(actual.content.equals(expected.content)).toBe(true);
    expect(actual.index.equals(expected.index)).toBe(true);
  }
}

describe("encodeContentYielding stores exactly what encodeContent stores", () => {
  it("for any JSON value (arrays, objects, strings, numbers, nesting)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), (value) => same(value)),
      { numRuns: 300 },
    );
  });

  it("for any value: dates, bigints, holes, boxed values, null prototypes, typed arrays", async () => {
    const anything = fc.anything({
      withBigInt: true,
      withDate: true,
      withSparseArray: true,
      withNullPrototype: true,
      withBoxedValues: true,
      withTypedArray: true,
      withMap: true,
      withSet: true,
    });
    await fc.assert(
      // Bytes are stored as they are (wrapped, to compare their JSON); arrays keep their holes.
      fc.asyncProperty(anything, (value) => same(value instanceof Uint8Array ? [value] : value)),
      { numRuns: 300 },
    );
  });

  it("for any string, surrogate pairs and lone surrogates included", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary" }), (text) => same(text)),
      { numRuns: 300 },
    );
    await same(`${"x".repeat(1024 * 1024 - 1)}😀 tail\nline`);
    await same(`a\n${"\ud800".repeat(10)}\n\n`);
  });

  it("for values JSON leaves out or converts: undefined, functions, bigints, dates, holes, toJSON", async () => {
    const sparse: unknown[] = [1];
    sparse[2] = 3; // a hole at 1
    await same({
      a: undefined,
      f: () => 1,
      big: 12n,
      when: new Date(0),
      list: [undefined, () => 1, 2n, new Date(1), sparse, { toJSON: (k: string) => `key ${k}` }],
      nested: { deeper: { deepest: [{}, [], ""] } },
      empty: {},
      emptyList: [],
      'quoted "key"\n': 1,
    });
    await same([undefined, 1n, { x: undefined }, [[]]]);
    await same(Object.assign(Object.create(null), { a: 1, b: [1, 2] }));
  });

  it("stores a hole of a top-level array as null, as encodeContent does", async () => {
    const holes: unknown[] = [];
    holes.length = 3;
    holes[1] = { a: 1 };
    const encoded = await encodeContentYielding(holes, undefined, TINY);
    expect(encoded.content.toString()).toBe('[\nnull,\n{"a":1},\nnull\n]');
    expect(encoded.total).toBe(3);
    expect(encodeContent(holes).content.toString()).toBe('[\nnull,\n{"a":1},\nnull\n]');
  });

  it("keeps the caller's mime type", async () => {
    await same({ a: [1, 2, 3] }, "application/vnd.example+json");
    await same([1, 2, 3], "application/x-ndjson");
    await same("a\nb", "text/csv");
  });

  it("refuses a circular structure as JSON.stringify does", async () => {
    const loop: Record<string, unknown> = { a: [1, 2, 3] };
    loop.self = { again: loop };
    await expect(encodeContentYielding(loop, undefined, TINY)).rejects.toThrow(TypeError);
  });
});
