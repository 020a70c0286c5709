import { describe, expect, it } from "vitest";
import { declaredValue } from "../../../src/ephemeral/declared-content.js";
import { searchResource } from "../../../src/ephemeral/search-resource.js";

const search = (stored: ReturnType<typeof declaredValue>, options: Record<string, unknown>) =>
  searchResource(stored.content, stored.meta, { limit: 100, ...options } as never).then((r) => r.result);

describe("searchResource", () => {
  const items = declaredValue(
    "t://items",
    [
      { id: 1, note: "line one\nline two" },
      { id: 2, note: "x x x x" },
      { id: 3, note: "x" },
    ],
    "application/json",
  );

  it("answers offsets in the decoded string, not in the item's JSON text", async () => {
    const found = await search(items, { pattern: "line two", context: 4 });
    expect(found.matches).toEqual([{ index: 0, path: "/note", offset: 9, text: "one\nline two" }]);
  });

  it("answers a match outside the strings (a key) as a window of the item's JSON text", async () => {
    const found = await search(items, { pattern: '"id":2', context: 1 });
    expect(found.matches).toEqual([{ index: 1, offset: 1, text: '{"id":2,' }]);
  });

  it("stops before an item whose matches do not fit, and keeps the first of an item alone too full", async () => {
    const cut = await search(items, { pattern: "x", limit: 5, context: 0 });
    expect(cut.matches.map((m) => m.index)).toEqual([1, 1, 1, 1, 2]);
    const crowded = await search(items, { pattern: "x", limit: 2, context: 0, offset: 1 });
    expect(crowded).toMatchObject({ count: 2, nextOffset: 2, hasMore: true });
    expect(crowded.hint).toMatch(/item 1 holds more matches than 2/);
  });

  it("searches a JSON value by match number, and text under a JSON type that is not JSON by line", async () => {
    const value = declaredValue("t://value", { a: "hit", b: ["hit", "hit"] }, "application/json");
    const first = await search(value, { pattern: "hit", limit: 2 });
    expect(first).toMatchObject({ count: 2, nextOffset: 2, hasMore: true, total: 1 });
    expect(first.matches.map((m) => m.path)).toEqual(["/a", "/b/0"]);
    const rest = await search(value, { pattern: "hit", limit: 2, offset: 2 });
    expect(rest).toMatchObject({ matches: [{ path: "/b/1", offset: 0, text: "hit" }], hasMore: false });
    const notJson = declaredValue("t://broken", "{ not json\nbut a hit", "application/json");
    expect((await search(notJson, { pattern: "hit" })).matches).toEqual([
      { index: 1, offset: 6, text: "but a hit" },
    ]);
  });

  it("stops at its scan bound and says where to search again", async () => {
    const log = declaredValue("t://log", "a hit\nb\nc hit\nd", "text/plain");
    const bounded = await search(log, { pattern: "hit", maxScanBytes: 1, offset: 1 });
    expect(bounded).toMatchObject({ count: 0, scanned: 1, nextOffset: 2, hasMore: true });
    expect(bounded.hint).toBe(
      "Searched lines 1 to 1 of 4: one call searches a bounded part of a large resource; search again with offset 2 for the rest.",
    );
    const rest = await search(log, { pattern: "hit", offset: 2 });
    expect(rest).toMatchObject({ count: 1, nextOffset: null, hasMore: false });
    expect(rest.hint).toBeUndefined();
  });

  it("refuses binary content", async () => {
    const bytes = { kind: "bytes", total: 3, version: "v" } as never;
    await expect(searchResource({} as never, bytes, { pattern: "x", limit: 1 } as never)).rejects.toThrow(
      "binary content cannot be searched; read it with byte slices",
    );
  });
});
