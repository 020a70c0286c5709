import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { BpeTokenCounter, breakLongRuns } from "../../../src/tokenizer/bpe-token-counter.js";

const counter = new BpeTokenCounter();
const all = async (text: string) => (await counter.count(text, Number.MAX_SAFE_INTEGER)).tokens;

const json = JSON.stringify(
  Array.from({ length: 2000 }, (_, i) => ({ id: i, title: `Article number ${i}`, tags: ["mcp", "budget"] })),
);
const prose = "Servers count what a model reads before they answer, and stop once past the budget. ".repeat(
  800,
);
// Non-ASCII, with surrogate pairs: `consumed` is in UTF-16 code units, like `text.length`.
const unicode = "Données 数据库 🙂 émojis et caractères accentués, 😀 encore. ".repeat(1500);

describe("BpeTokenCounter", () => {
  beforeAll(() => counter.load());

  it("counts a short text whole and exactly", async () => {
    const text = "hello world, ".repeat(50);
    const counted = await counter.count(text, 10);
    expect(counted.exact).toBe(true);
    expect(counted.tokens).toBe(await all(text));
  });

  it("stops early past the limit and says how many characters its tokens cover", async () => {
    for (const text of [json, prose, unicode]) {
      const counted = await counter.count(text, 500);
      expect(counted.exact).toBe(false);
      expect(counted.tokens).toBeGreaterThan(500);
      expect(counted.tokens).toBeLessThan(700);
      expect(counted.consumed).toBeGreaterThan(0);
      expect(counted.consumed).toBeLessThan(text.length);
      // Tokens per character are those of the text's start, for extrapolation.
      const start = text.slice(0, counted.consumed);
      expect(counted.tokens / start.length / ((await all(start)) / start.length)).toBeCloseTo(1, 1);
      expect(counted.tokens).toBeLessThanOrEqual(await all(text));
    }
  });

  it("stays a lower bound, with a proportional `consumed`, when it stops at the prefix's cut", async () => {
    // limit 100 → a 1,024-character prefix; 160 one-token words, then a run of letters cut there.
    const text = `${" hello".repeat(160)}${"x".repeat(5000)}`;
    const counted = await counter.count(text, 100);
    expect(counted.exact).toBe(false);
    expect(counted.tokens).toBeGreaterThan(100);
    expect(counted.tokens).toBeLessThanOrEqual(await all(text));
    expect(counted.consumed).toBeLessThan(1024);
    // Its tokens per character stay those of the counted prefix, for extrapolation.
    const rate = counted.tokens / (counted.consumed ?? 0);
    expect(rate / ((await all(text.slice(0, 1024))) / 1024)).toBeCloseTo(1, 1);
  });
});

describe("long runs of letters or punctuation", () => {
  beforeAll(() => counter.load());

  it("break into pieces of 256 characters, so BPE never merges within a longer run", () => {
    expect(breakLongRuns("short text")).toBe("short text");
    expect(breakLongRuns(`${"a".repeat(256)} ${"b".repeat(10)}`)).toBe(
      `${"a".repeat(256)} ${"b".repeat(10)}`,
    );
    const broken = breakLongRuns("x".repeat(600));
    expect(broken.split(" ").map((piece) => piece.length)).toEqual([256, 256, 88]);
  });

  it("break exactly where the regular expression says, in one linear pass (seeded)", () => {
    const pieces = ["a", " ", "\t", "\n", "\u00a0", "\u2003", "\ufeff", "{", '"', "é", "🎉"];
    const slow = (text: string) => text.replace(/\S{256}(?=\S)/g, "$& ");
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...pieces), fc.integer({ min: 1, max: 300 })), { maxLength: 12 }),
        (parts) => {
          const text = parts.map(([piece, times]) => piece.repeat(times)).join("");
          expect(breakLongRuns(text)).toBe(slow(text));
        },
      ),
      { seed: 256, numRuns: 500 },
    );
    // 3 KB of JSON, whose runs of non-space characters are long, is scanned once.
    const json = JSON.stringify(
      Array.from({ length: 40 }, (_, id) => ({ id, title: "a title", at: "2026-01-01" })),
    );
    expect(breakLongRuns(json)).toBe(json);
  });

  it("count a run as its pieces: never fewer tokens than the pieces have, and a few more a piece at most", async () => {
    // A 100,000-letter word (or a line of 100,000 dashes) in a tool's output used to cost BPE
    // time quadratic in its length: seconds per call, for every session, in a budgeted tool.
    for (const run of ["A".repeat(100_000), "-".repeat(100_000), "ab".repeat(50_000)]) {
      const counted = await counter.count(run, Number.MAX_SAFE_INTEGER);
      const pieces = Math.ceil(run.length / 256);
      let exact = 0;
      for (let i = 0; i < run.length; i += 256) exact += await all(run.slice(i, i + 256));
      expect(counted.tokens).toBeGreaterThanOrEqual(exact);
      expect(counted.tokens).toBeLessThanOrEqual(exact + 3 * pieces);
    }
  });

  it("leave prose, JSON and unicode text exactly as they count", async () => {
    for (const text of [json.slice(0, 20_000), prose.slice(0, 20_000), unicode.slice(0, 20_000)]) {
      expect(breakLongRuns(text)).toBe(text);
    }
  });
});

describe("BpeTokenCounter without a limit", () => {
  it("counts the whole text when the limit is left out, and refuses a limit that is no number", async () => {
    const counter = new BpeTokenCounter();
    const text = "word ".repeat(5_000);
    expect((await counter.count(text)).tokens).toBe(counter.countSync(text, Number.MAX_SAFE_INTEGER).tokens);
    expect(counter.countSync(text).exact).toBe(true);
    expect(() => counter.countSync(text, Number.NaN)).toThrow(/the limit must be a number of tokens/);
  });
});
