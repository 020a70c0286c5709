import { beforeAll, describe, expect, it } from "vitest";
import { countResult, MEDIA_TOKENS } from "../../../src/budget/count-result.js";
import { SAMPLE_TOKENS, SAMPLES } from "../../../src/budget/extrapolate.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";
import type { TokenCount, TokenCounter } from "../../../src/tokenizer/token-counter.js";

const bpe = new BpeTokenCounter();
const realTokens = async (text: string) => (await bpe.count(text, Number.MAX_SAFE_INTEGER)).tokens;
const textResult = (...texts: string[]) => ({ content: texts.map((text) => ({ type: "text", text })) });

/**
 * One token per character, stopping once past the limit; records the characters it read.
 * `reportsConsumed: false` makes it a counter that does not say where it stopped.
 */
function charCounter({ reportsConsumed = true } = {}) {
  const calls: Array<{ length: number; limit: number }> = [];
  const counter: TokenCounter = {
    count(text, limit): TokenCount {
      calls.push({ length: text.length, limit });
      if (text.length <= limit) return { tokens: text.length, exact: true };
      return { tokens: limit + 1, exact: false, ...(reportsConsumed ? { consumed: limit + 1 } : {}) };
    },
  };
  const read = () => calls.reduce((sum, call) => sum + Math.min(call.length, call.limit + 1), 0);
  return { counter, calls, read };
}

function rows(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: i,
    slug: `post-${i}`,
    title: `Article number ${i} about keyset pagination`,
    updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    tags: ["mcp", i % 2 ? "cache" : "budget"],
  }));
}
const words = "the model reads every token a server returns so budgets matter more than bytes".split(" ");
function prose(sentences: number) {
  let text = "";
  for (let i = 0; i < sentences; i++) {
    const length = 6 + ((i * 7) % 13);
    const sentence = Array.from({ length }, (_, j) => words[(i * 31 + j * 17) % words.length]).join(" ");
    text += `${sentence[0].toUpperCase()}${sentence.slice(1)}.${i % 5 === 4 ? "\n\n" : " "}`;
  }
  return text;
}

describe("countResult", () => {
  beforeAll(() => bpe.load());

  it("answers what it counted within the limit, exactly", async () => {
    const text = "a small result";
    expect(await countResult(textResult(text), bpe, 2000)).toEqual({
      tokens: await realTokens(text),
      exact: true,
    });
  });

  it("answers the exact size, without `estimated`, when a result over the limit was counted to the end", async () => {
    const text = prose(30);
    expect(text.length).toBeLessThanOrEqual(300 * 8); // short enough for BpeTokenCounter to count whole
    const real = await realTokens(text);
    expect(real).toBeGreaterThan(300);
    const counted = await countResult(textResult(text), bpe, 300);
    expect(counted).toEqual({ tokens: real, exact: true });
  });

  it("adds media after the stop exactly", async () => {
    const { counter } = charCounter();
    const image = { type: "image", data: "", mimeType: "image/png" };
    const result = { content: [{ type: "text", text: "x".repeat(5) }, image, image] };
    expect(await countResult(result, counter, 10)).toEqual({ tokens: 5 + 2 * MEDIA_TOKENS, exact: true });
  });

  it("extrapolates tokens per character over every uncounted text part, reading O(limit) characters", async () => {
    const { counter, read } = charCounter();
    const big = "y".repeat(5_000_000);
    const result = {
      content: [
        { type: "text", text: "x".repeat(1000) },
        { type: "image", data: "", mimeType: "image/png" },
        { type: "text", text: big },
        { type: "resource_link", uri: "ephemeral://t/1", name: "more" },
      ],
    };
    const counted = await countResult(result, counter, 2000);
    const link = JSON.stringify({ uri: "ephemeral://t/1", name: "more" }).length;
    // One token per character everywhere: the estimate is exact here.
    expect(counted).toEqual({
      tokens: 1000 + MEDIA_TOKENS + big.length + link,
      exact: false,
      estimated: true,
    });
    expect(read()).toBeLessThan(2000 + SAMPLES * SAMPLE_TOKENS * 16);
  });

  it("estimates a large JSON array within 15 %, counting a prefix and a few samples", async () => {
    const text = JSON.stringify(rows(3000));
    const real = await realTokens(text);
    const counted = await countResult(textResult(text), bpe, 2000);
    expect(counted.estimated).toBe(true);
    expect(counted.exact).toBe(false);
    expect(Math.abs(counted.tokens / real - 1)).toBeLessThan(0.15);
  });

  it("estimates prose within 15 %", async () => {
    const text = prose(4000);
    const real = await realTokens(text);
    const counted = await countResult(textResult(text), bpe, 2000);
    expect(Math.abs(counted.tokens / real - 1)).toBeLessThan(0.15);
  });

  it("is not misled by a start unlike the rest (an envelope with a long preamble)", async () => {
    const text = JSON.stringify({ summary: prose(300), rows: rows(3000) });
    const real = await realTokens(text);
    const start = await bpe.count(text, 2000);
    const fromPrefixOnly = (start.tokens / (start.consumed ?? 1)) * text.length;
    expect(Math.abs(fromPrefixOnly / real - 1)).toBeGreaterThan(0.2); // the trap is real
    const counted = await countResult(textResult(text), bpe, 2000);
    expect(Math.abs(counted.tokens / real - 1)).toBeLessThan(0.15);
  });

  it("falls back to characters / 4, without sampling, for a counter that does not say where it stopped", async () => {
    const { counter, calls } = charCounter({ reportsConsumed: false });
    const counted = await countResult(textResult("z".repeat(40_000)), counter, 2000);
    expect(counted).toEqual({ tokens: 10_000, exact: false, estimated: true });
    expect(calls).toHaveLength(1);
    // Never below what was counted.
    expect((await countResult(textResult("z".repeat(4000)), counter, 2000)).tokens).toBe(2001);
  });

  it("prices an uncovered part at the rate measured on fully counted parts when there is one", async () => {
    // Two characters a token, exact on short texts; no `consumed` when it stops.
    const counter: TokenCounter = {
      count: (text, limit) => {
        const tokens = Math.ceil(text.length / 2);
        return tokens <= limit ? { tokens, exact: true } : { tokens: limit + 1, exact: false };
      },
    };
    const counted = await countResult(textResult("a".repeat(1000), "b".repeat(100_000)), counter, 2000);
    expect(counted).toEqual({ tokens: 500 + 50_000, exact: false, estimated: true });
  });

  it("counts resource contents and prompt messages the same way", async () => {
    const { counter } = charCounter();
    const resource = { contents: [{ uri: "a://b", text: "r".repeat(100_000) }] };
    expect((await countResult(resource, counter, 500)).tokens).toBe(100_000);
    const prompt = { messages: [{ role: "user", content: { type: "text", text: "p".repeat(30_000) } }] };
    expect((await countResult(prompt, counter, 500)).tokens).toBe(30_000);
  });
});
