import { describe, expect, it } from "vitest";
import { declaredValue } from "../../../src/ephemeral/declared-content.js";
import { searchJsonValue } from "../../../src/ephemeral/search-json-value.js";
import { searchMatcher } from "../../../src/ephemeral/search-matcher.js";
import type { SearchOptions } from "../../../src/ephemeral/search-resource.js";

async function search(value: unknown, options: Partial<SearchOptions> & { pattern: string }) {
  const stored = declaredValue("t://value", value, "application/json");
  const all = { limit: 100, context: 0, ...options } as SearchOptions;
  return searchJsonValue(stored.content, stored.meta, await searchMatcher(all), all);
}

describe("searchJsonValue", () => {
  const value = { a: "hit hit", b: { c: "miss", d: ["hit"] }, e: "hit" };

  it("numbers matches across the value's strings, skips `offset` of them and says when there are more", async () => {
    const page = await search(value, { pattern: "hit", offset: 1, limit: 2 });
    expect(page.result.matches).toEqual([
      { path: "/a", offset: 4, text: "hit" },
      { path: "/b/d/0", offset: 0, text: "hit" },
    ]);
    expect(page.found.map((f) => f.entry)).toEqual([1, 2]);
    expect(page.result).toMatchObject({ count: 2, total: 1, scanned: 1, nextOffset: 3, hasMore: true });
    const rest = await search(value, { pattern: "hit", offset: 3, limit: 2 });
    expect(rest.result).toMatchObject({ matches: [{ path: "/e" }], nextOffset: null, hasMore: false });
  });

  it("answers the value whole under `whole`, once, when one of its strings matches", async () => {
    expect((await search(value, { pattern: "miss", whole: true })).result.matches).toEqual([{ item: value }]);
    expect((await search(value, { pattern: "miss", whole: true, offset: 1 })).result.matches).toEqual([]);
    expect((await search(value, { pattern: "absent", whole: true })).result.count).toBe(0);
  });
});
