import { describe, expect, it } from "vitest";
import { fitSearch } from "../../../src/ephemeral/search-budget.js";
import type { FoundMatch, SearchFound } from "../../../src/ephemeral/search-resource.js";
import type { TokenCounter } from "../../../src/tokenizer/token-counter.js";

/** One token per character. */
const chars: TokenCounter = {
  count: (text, limit) =>
    text.length <= limit ? { tokens: text.length, exact: true } : { tokens: limit + 1, exact: false },
};
const found = (matches: FoundMatch[], total = 10): SearchFound => ({
  found: matches,
  result: {
    version: 1,
    matches: matches.map((f) => f.match),
    count: matches.length,
    total,
    scanned: total,
    nextOffset: null,
    hasMore: false,
  },
});
const at = (index: number, text = "..p..", lead = 2): FoundMatch => ({
  match: { index, offset: lead, text },
  entry: index,
  lead,
});
const size = (value: unknown) => JSON.stringify(value).length;

describe("fitSearch", () => {
  it("cuts between items, and starts the next search at the first item left out", async () => {
    const all = found([at(1), at(2), at(2), at(5)]);
    const whole = await fitSearch(all, 0, size(all.result), chars);
    expect(whole).toBe(all.result);
    const fitted = await fitSearch(all, 0, size(all.result) - 10, chars);
    expect(fitted.matches.map((m) => m.index)).toEqual([1, 2, 2]);
    expect(fitted).toMatchObject({ nextOffset: 3, hasMore: true, scanned: 3 });
    // Cut inside item 2: item 2 goes whole to the next search.
    const inside = await fitSearch(
      all,
      0,
      size({ ...all.result, matches: all.result.matches.slice(0, 2) }) + 2,
      chars,
    );
    expect(inside.matches.map((m) => m.index)).toEqual([1]);
    expect(inside).toMatchObject({ nextOffset: 2 });
  });

  it("narrows a window alone over the budget around its match, never skips it", async () => {
    const long = `${"a".repeat(500)}p${"b".repeat(500)}`;
    const one = found([at(4, long, 500)]);
    const fitted = await fitSearch(one, 0, 300, chars);
    expect("skipped" in fitted).toBe(false);
    const [match] = fitted.matches;
    expect(match?.text).toContain("p");
    expect(size(fitted)).toBeLessThanOrEqual(300);
  });

  it("skips a whole item alone over the budget, and says to search without whole", async () => {
    const whole = found([{ match: { index: 3, item: { body: "z".repeat(1000) } }, entry: 3, lead: 0 }]);
    const fitted = await fitSearch(whole, 0, 200, chars);
    expect(fitted).toMatchObject({ matches: [], nextOffset: 4, skipped: { index: 3, budget: 200 } });
    expect(JSON.stringify(fitted)).toContain("search without whole");
  });
});

describe("fitSearch on a JSON value (offsets count matches)", () => {
  it("goes on after the match it had to skip, wherever the search started", async () => {
    const match = { match: { path: "/a", offset: 0, text: "p" }, entry: 7, lead: 0 };
    const value = found([match], 1);
    const fitted = await fitSearch(value, 7, 5, chars);
    expect(fitted).toMatchObject({ matches: [], nextOffset: 8, hasMore: true });
  });
});
