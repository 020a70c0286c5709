import { describe, expect, it } from "vitest";
import { isIterable, pushedDown, withTotal } from "../../../src/pagination/handler-value.js";
import type { KeySpec } from "../../../src/pagination/stable-key.js";

const byId: KeySpec = { fields: ["id"], order: "asc" };

describe("what a paged handler returns", () => {
  it("trusts an array as its own page only when it read ctx.page and fetched at most limit + 1 rows after `after`", () => {
    const rows = [{ id: 4 }, { id: 5 }, { id: 6 }];
    expect(pushedDown(rows, { after: { id: 3 }, limit: 2 }, byId, true)).toBe(true);
    expect(pushedDown(rows, { after: { id: 3 }, limit: 2 }, byId, false)).toBe(false);
    expect(pushedDown(rows, { after: { id: 3 }, limit: 1 }, byId, true)).toBe(false);
    // The cursor's own row again: everything was returned, not the page after it.
    expect(pushedDown(rows, { after: { id: 4 }, limit: 5 }, byId, true)).toBe(false);
  });

  it("takes { items, total } apart and refuses a total that is not a count", () => {
    expect(withTotal({ items: [1], total: 9 }, "S.m")).toEqual({ value: [1], total: 9 });
    expect(withTotal([1], "S.m")).toEqual({ value: [1], total: undefined });
    expect(() => withTotal({ items: [], total: -1 }, "S.m")).toThrow(
      /S.m returned \{ items, total \} with a total/,
    );
  });

  it("knows arrays, generators and async generators as items", async () => {
    async function* none() {}
    expect(isIterable([])).toBe(true);
    expect(isIterable(none())).toBe(true);
    expect(isIterable({ length: 0 })).toBe(false);
    expect(isIterable(null)).toBe(false);
  });
});
