import { describe, expect, it } from "vitest";
import { HandlerWalk } from "../../../src/pagination/handler-walk.js";
import type { KeySpec } from "../../../src/pagination/stable-key.js";
import { keysetPage, specOf, walkHarness } from "./walk-harness.js";

const byId: KeySpec = { fields: ["id"], order: "asc" };
const ITEMS = Array.from({ length: 35 }, (_, i) => ({ id: i + 1 }));
const bounds = { maxItems: 1_000, maxMs: 10_000 };

async function walkAll(harness: ReturnType<typeof walkHarness>, limits = bounds) {
  const walk = new HandlerWalk(harness.invocation, harness.next, specOf(), byId, undefined);
  const seen: number[] = [];
  const end = await walk.read(await walk.call(null), limits, (item) =>
    seen.push((item as { id: number }).id),
  );
  return { end, seen };
}

describe("HandlerWalk", () => {
  it("asks a keyset handler page after page of maxLimit, after the last key read", async () => {
    const harness = walkHarness((page) => keysetPage(ITEMS, page));
    const { end, seen } = await walkAll(harness);
    expect(seen).toEqual(ITEMS.map((i) => i.id));
    expect(end).toEqual({ scanned: 35 });
    expect(harness.calls.map((page) => page.after)).toEqual([null, { id: 10 }, { id: 20 }, { id: 30 }]);
    expect(harness.calls.every((page) => page.limit === 10 && page.cursor === null)).toBe(true);
  });

  it("reads a handler that ignores ctx.page in one pass, ordered by the framework", async () => {
    const harness = walkHarness(() => [...ITEMS].reverse(), { readsPage: false });
    const { end, seen } = await walkAll(harness);
    expect(seen).toEqual(ITEMS.map((i) => i.id));
    expect(end).toEqual({ scanned: 35 });
    expect(harness.calls).toHaveLength(1);
  });

  it("stops at maxItems, saying which bound stopped it", async () => {
    const { end, seen } = await walkAll(
      walkHarness((page) => keysetPage(ITEMS, page)),
      { maxItems: 12, maxMs: 10_000 },
    );
    expect(seen).toHaveLength(12);
    expect(end).toEqual({ scanned: 12, bound: "at 12 items (aggregate.maxScanItems)" });
  });

  it("stops at maxMs between pages, on the process's own clock", async () => {
    const slow = walkHarness((page) => {
      // A slow database: each page takes at least 3 ms of CPU.
      const until = performance.now() + 3;
      while (performance.now() < until) {}
      return keysetPage(ITEMS, page);
    });
    const { end, seen } = await walkAll(slow, { maxItems: 1_000, maxMs: 1 });
    expect(seen).toHaveLength(10);
    expect(end).toEqual({ scanned: 10, bound: "after 1 ms (aggregate.maxScanMs)" });
  });

  it("hands back an isError result of the handler as it is", async () => {
    const refusal = { isError: true, content: [{ type: "text", text: "no such site" }] };
    const { end } = await walkAll(walkHarness(() => refusal));
    expect(end).toEqual({ scanned: 0, error: refusal });
  });

  it("reads async iterables too, and takes { items, total } apart", async () => {
    async function* generate() {
      for (const item of ITEMS) yield item;
    }
    const iterable = await walkAll(walkHarness(() => generate(), { readsPage: false }));
    expect(iterable.seen).toHaveLength(35);
    const withTotal = await walkAll(walkHarness((page) => ({ items: keysetPage(ITEMS, page), total: 35 })));
    expect(withTotal.seen).toHaveLength(35);
  });
});
