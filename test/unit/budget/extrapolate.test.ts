import { describe, expect, it } from "vitest";
import { extrapolate, SAMPLE_TOKENS, SAMPLES } from "../../../src/budget/extrapolate.js";
import type { TokenCounter } from "../../../src/tokenizer/token-counter.js";

/** One token per character; records the samples it was given. */
function recordingCounter() {
  const seen: string[] = [];
  const counter: TokenCounter = {
    count(text) {
      seen.push(text);
      return { tokens: text.length, exact: true };
    },
  };
  return { counter, seen };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("extrapolate", () => {
  it("prices the rest stratum by stratum, from one bounded sample in the middle of each", async () => {
    const { counter, seen } = recordingCounter();
    const text = "word ".repeat(200_000);
    const tokens = await extrapolate(
      [{ text, tokens: 3000, covered: 3000, consumedReported: true }],
      counter,
    );
    expect(tokens).toBe(text.length);
    expect(seen).toHaveLength(SAMPLES);
    for (const sample of seen) {
      expect(sample.length).toBeLessThanOrEqual(SAMPLE_TOKENS * 16);
      expect(sample.startsWith(" ")).toBe(true); // cut where a word starts, as BPE cuts
    }
  });

  it("prices each stratum at its own sample's rate when the rest is unlike the counted start", async () => {
    // "a" costs a token, "b" half a token.
    const counter: TokenCounter = {
      count(text) {
        const a = text.split("a").length - 1;
        return { tokens: a + (text.length - a) / 2, exact: true };
      },
    };
    const text = `${"a".repeat(1000)}${"b".repeat(100_000)}`;
    const tokens = await extrapolate(
      [{ text, tokens: 1000, covered: 1000, consumedReported: true }],
      counter,
    );
    expect(tokens).toBe(1000 + 100_000 / 2);
  });

  it("never cuts a surrogate pair", async () => {
    const { counter, seen } = recordingCounter();
    const text = "😀".repeat(100_000);
    await extrapolate([{ text, tokens: 3001, covered: 3001, consumedReported: true }], counter);
    expect(seen).toHaveLength(SAMPLES);
    for (const sample of seen) expect(LONE_SURROGATE.test(sample)).toBe(false);
  });

  it("counts nothing more when the counter did not say where it stopped", async () => {
    const { counter, seen } = recordingCounter();
    const tokens = await extrapolate(
      [
        { text: "a".repeat(400), tokens: 100, covered: 400, consumedReported: false },
        { text: "b".repeat(10_000), tokens: 0, covered: 0, consumedReported: false },
      ],
      counter,
    );
    expect(seen).toHaveLength(0);
    expect(tokens).toBe(100 + 10_000 / 4); // the rate measured on the first part
  });
});
