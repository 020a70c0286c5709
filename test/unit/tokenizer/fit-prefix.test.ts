import { describe, expect, it } from "vitest";
import { fitPrefix } from "../../../src/tokenizer/fit-prefix.js";
import type { TokenCount, TokenCounter } from "../../../src/tokenizer/token-counter.js";

/** One token per character; records every text it was asked to count and the limit it got. */
function charCounter(options: { async?: boolean } = {}) {
  const calls: Array<{ text: string; limit: number }> = [];
  const counter: TokenCounter = {
    count(text, limit): TokenCount | Promise<TokenCount> {
      calls.push({ text, limit });
      const result = { tokens: text.length, exact: true };
      return options.async ? Promise.resolve(result) : result;
    },
  };
  return { counter, calls };
}

/** `[1,2,…,n]` as JSON: each item adds tokens, so the rendering grows with n. */
const renderList = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => i + 1));

describe("fitPrefix", () => {
  it("answers the whole when it fits, after one count", async () => {
    const { counter, calls } = charCounter();
    expect(await fitPrefix(5, renderList, 100, counter)).toEqual({ n: 5, tokens: renderList(5).length });
    expect(calls).toEqual([{ text: renderList(5), limit: 100 }]);
  });

  it("finds the largest prefix that fits, with its tokens", async () => {
    const { counter } = charCounter();
    for (const budget of [2, 3, 4, 5, 6, 7, 8, 10, 11, 20, 21, 22]) {
      let expected = 0;
      while (expected < 30 && renderList(expected + 1).length <= budget) expected++;
      const result = await fitPrefix(30, renderList, budget, counter);
      expect(result, `budget ${budget}`).toEqual({ n: expected, tokens: renderList(expected).length });
      expect(result.tokens).toBeLessThanOrEqual(budget);
    }
  });

  it("counts an exact fit as fitting", async () => {
    const { counter } = charCounter();
    const render = (n: number) => "x".repeat(n);
    expect(await fitPrefix(100, render, 37, counter)).toEqual({ n: 37, tokens: 37 });
    expect(await fitPrefix(37, render, 37, counter)).toEqual({ n: 37, tokens: 37 });
  });

  it("searches in logarithmically many counts, each bounded by the budget", async () => {
    const { counter, calls } = charCounter();
    const result = await fitPrefix(1_000_000, (n) => "x".repeat(n), 1234, counter);
    expect(result).toEqual({ n: 1234, tokens: 1234 });
    expect(calls.length).toBeLessThanOrEqual(23); // whole + empty + ⌈log2(10⁶)⌉
    expect(calls.every((call) => call.limit === 1234)).toBe(true);
  });

  it("answers zero when nothing fits, with the tokens of the empty rendering", async () => {
    const { counter } = charCounter();
    const render = (n: number) => `header:${"x".repeat(n)}`;
    expect(await fitPrefix(10, render, 3, counter)).toEqual({ n: 0, tokens: 7 });
  });

  it("handles max 0", async () => {
    const { counter } = charCounter();
    expect(await fitPrefix(0, () => "ab", 5, counter)).toEqual({ n: 0, tokens: 2 });
  });

  it("awaits an asynchronous counter", async () => {
    const { counter } = charCounter({ async: true });
    expect(await fitPrefix(10, (n) => "y".repeat(n * 2), 9, counter)).toEqual({ n: 4, tokens: 8 });
  });

  it("propagates a counter's failure", async () => {
    const counter: TokenCounter = {
      count: () => Promise.reject(new Error("tokenizer not loaded")),
    };
    await expect(fitPrefix(3, String, 10, counter)).rejects.toThrow("tokenizer not loaded");
  });
});
