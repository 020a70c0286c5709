import { describe, expect, it } from "vitest";
import {
  rowsFromArray,
  rowsFromIterable,
  rowsFromTrustedArray,
} from "../../../src/pagination/collect-rows.js";
import type { KeyValue } from "../../../src/pagination/cursor-values.js";
import type { KeySpec } from "../../../src/pagination/stable-key.js";
import type { StreamWindow } from "../../../src/pagination/stream-window.js";

const byId: KeySpec = { fields: ["id"], order: "asc" };
const page = (limit: number, after: Record<string, KeyValue> | null = null, window?: StreamWindow) => ({
  after,
  limit,
  window,
});
const rows = (...ids: number[]) => ids.map((id) => ({ id, name: `n${id}` }));
const ids = (items: unknown[]) => items.map((item) => (item as { id: number }).id);

/** A generator over `items` that records how far it was read and whether it was closed. */
function tracked(items: unknown[]) {
  const state = { read: 0, closed: false };
  function* generate() {
    try {
      for (const item of items) {
        state.read++;
        yield item;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, source: generate() };
}

describe("rowsFromTrustedArray", () => {
  it("keeps the handler's order and only `limit` rows, saying whether more follow", () => {
    const result = rowsFromTrustedArray(rows(9, 3, 5), page(2), byId);
    expect(ids(result.items)).toEqual([9, 3]);
    expect(result.keys).toEqual([{ id: 9 }, { id: 3 }]);
    expect(result.hasMore).toBe(true);
  });

  it("has no more when the handler returned at most `limit` rows", () => {
    expect(rowsFromTrustedArray(rows(1, 2), page(2), byId).hasMore).toBe(false);
    expect(rowsFromTrustedArray([], page(2), byId)).toEqual({ items: [], keys: [], hasMore: false });
  });

  it("refuses a kept row without its key", () => {
    expect(() => rowsFromTrustedArray([{ id: 1 }, { name: "x" }], page(5), byId)).toThrow(
      'item 1 has no "id"',
    );
  });
});

describe("rowsFromArray", () => {
  it("orders the rows by key and keeps the first page", () => {
    const result = rowsFromArray(rows(5, 1, 4, 2, 3), page(2), byId);
    expect(ids(result.items)).toEqual([1, 2]);
    expect(result.keys).toEqual([{ id: 1 }, { id: 2 }]);
    expect(result.hasMore).toBe(true);
  });

  it("starts strictly after `after`, even when that row is gone", () => {
    expect(ids(rowsFromArray(rows(1, 2, 3, 4), page(2, { id: 2 }), byId).items)).toEqual([3, 4]);
    // id 2 was deleted between two pages: the walk still goes on from where it was.
    expect(ids(rowsFromArray(rows(1, 3, 4), page(5, { id: 2 }), byId).items)).toEqual([3, 4]);
    const past = rowsFromArray(rows(1, 2), page(5, { id: 9 }), byId);
    expect(past).toEqual({ items: [], keys: [], hasMore: false });
  });

  it("walks every row exactly once, page after page", () => {
    const all = rows(...Array.from({ length: 23 }, (_, i) => (i * 7) % 23));
    const seen: number[] = [];
    let after: Record<string, KeyValue> | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const result = rowsFromArray(all, page(5, after), byId);
      seen.push(...ids(result.items));
      if (!result.hasMore) break;
      after = result.keys[result.keys.length - 1] ?? null;
    }
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => i));
  });

  it("has no more on a last page that is exactly full", () => {
    const result = rowsFromArray(rows(1, 2, 3, 4), page(2, { id: 2 }), byId);
    expect(ids(result.items)).toEqual([3, 4]);
    expect(result.hasMore).toBe(false);
  });

  it("orders descending, and `after` then means smaller keys", () => {
    const spec: KeySpec = { fields: ["id"], order: "desc" };
    expect(ids(rowsFromArray(rows(1, 3, 2, 4), page(2), spec).items)).toEqual([4, 3]);
    expect(ids(rowsFromArray(rows(1, 3, 2, 4), page(2, { id: 3 }), spec).items)).toEqual([2, 1]);
  });

  it("orders by several fields", () => {
    const spec: KeySpec = { fields: ["day", "id"], order: "asc" };
    const items = [
      { day: 2, id: 1 },
      { day: 1, id: 2 },
      { day: 1, id: 1 },
    ];
    const result = rowsFromArray(items, page(10, { day: 1, id: 1 }), spec);
    expect(result.items).toEqual([
      { day: 1, id: 2 },
      { day: 2, id: 1 },
    ]);
  });

  it("refuses duplicate keys, naming the key and the fix", () => {
    const at = new Date("2026-01-01T00:00:00.000Z");
    const spec: KeySpec = { fields: ["at", "id"], order: "asc" };
    expect(() =>
      rowsFromArray(
        [
          { at, id: 1 },
          { at: new Date(at.getTime()), id: 1 },
        ],
        page(10),
        spec,
      ),
    ).toThrow(
      "two items share the stable key at=2026-01-01T00:00:00.000Z, id=1; @Paginated needs a unique key (add a tie-breaker field such as an id)",
    );
  });

  it("refuses a row without its key, naming its position in the handler's array", () => {
    expect(() => rowsFromArray([{ id: 1 }, { id: 2 }, {}], page(1), byId)).toThrow('item 2 has no "id"');
  });

  it("keeps only rows inside a stream window (since, until]", () => {
    const window: StreamWindow = { since: 10, until: 20 };
    const result = rowsFromArray(rows(5, 10, 11, 20, 21, 15), page(10, null, window), byId);
    expect(ids(result.items)).toEqual([11, 15, 20]);
    expect(result.hasMore).toBe(false);
  });

  it("does not mutate the handler's array", () => {
    const input = rows(3, 1, 2);
    rowsFromArray(input, page(2), byId);
    expect(ids(input)).toEqual([3, 1, 2]);
  });
});

describe("rowsFromIterable", () => {
  it("reads at most limit + 1 rows, then closes the iterator", async () => {
    const { state, source } = tracked(rows(1, 2, 3, 4, 5, 6));
    const result = await rowsFromIterable(source, page(2), byId);
    expect(ids(result.items)).toEqual([1, 2]);
    expect(result.keys).toEqual([{ id: 1 }, { id: 2 }]);
    expect(result.hasMore).toBe(true);
    expect(state.read).toBe(3);
    expect(state.closed).toBe(true);
  });

  it("skips rows at or before `after` without counting them", async () => {
    const { state, source } = tracked(rows(1, 2, 3, 4, 5, 6));
    const result = await rowsFromIterable(source, page(2, { id: 2 }), byId);
    expect(ids(result.items)).toEqual([3, 4]);
    expect(result.hasMore).toBe(true);
    expect(state.read).toBe(5);
  });

  it("has no more when the source ends on a full page", async () => {
    const result = await rowsFromIterable(rows(1, 2), page(2), byId);
    expect(ids(result.items)).toEqual([1, 2]);
    expect(result.hasMore).toBe(false);
  });

  it("reads async iterables", async () => {
    async function* source() {
      for (const id of [1, 2, 3]) yield { id };
    }
    const result = await rowsFromIterable(source(), page(5, { id: 1 }), byId);
    expect(result).toEqual({ items: [{ id: 2 }, { id: 3 }], keys: [{ id: 2 }, { id: 3 }], hasMore: false });
  });

  it("skips rows before a stream window and stops at the first row past it", async () => {
    const { state, source } = tracked(rows(5, 10, 11, 20, 21, 22, 23));
    const result = await rowsFromIterable(source, page(10, null, { since: 10, until: 20 }), byId);
    expect(ids(result.items)).toEqual([11, 20]);
    expect(result.hasMore).toBe(false);
    expect(state.read).toBe(5);
    expect(state.closed).toBe(true);
  });

  it("walks a descending stream from until down to since", async () => {
    const spec: KeySpec = { fields: ["id"], order: "desc" };
    const result = await rowsFromIterable(
      rows(30, 20, 15, 10, 5),
      page(10, null, { since: 10, until: 20 }),
      spec,
    );
    expect(ids(result.items)).toEqual([20, 15]);
  });

  it("refuses a row without its key, naming its position in the source", async () => {
    await expect(rowsFromIterable([{ id: 1 }, { id: 2 }, { other: 3 }], page(10), byId)).rejects.toThrow(
      'item 2 has no "id"',
    );
  });
});
