import { describe, expect, it } from "vitest";
import { LruCache } from "../../../src/cache/lru-cache.js";
import type { CacheEntry } from "../../../src/cache/result-cache.js";

const entry = (namespace: string, input: unknown, value: unknown = "v"): CacheEntry => ({
  namespace,
  input,
  value,
  expiresAt: Number.MAX_SAFE_INTEGER,
});

describe("LruCache", () => {
  it("gives back what was set, and drops a namespace's entries, or those a matcher picks", async () => {
    const cache = new LruCache();
    await cache.set("a1", entry("A.get", { id: 1 }), 60_000);
    await cache.set("a2", entry("A.get", { id: 2 }), 60_000);
    await cache.set("b1", entry("B.get", { id: 1 }), 60_000);
    expect(await cache.get("a1")).toEqual(entry("A.get", { id: 1 }));
    expect(await cache.invalidate("A.get", (input) => (input as { id: number }).id === 2)).toBe(1);
    expect(await cache.get("a2")).toBeUndefined();
    expect(await cache.get("a1")).toBeDefined();
    expect(await cache.invalidate("A.get")).toBe(1);
    expect(await cache.get("a1")).toBeUndefined();
    expect(await cache.get("b1")).toBeDefined();
    expect(await cache.invalidate("Nothing.here")).toBe(0);
  });

  it("does not store an entry larger than maxEntryBytes", async () => {
    const cache = new LruCache({ maxBytes: 10_000, maxEntryBytes: 200 });
    await cache.set("big", entry("A.get", {}, "x".repeat(500)), 60_000);
    await cache.set("small", entry("A.get", {}, "x"), 60_000);
    expect(await cache.get("big")).toBeUndefined();
    expect(await cache.get("small")).toBeDefined();
  });

  it("evicts the least recently used entries to stay under maxBytes, and counts them", async () => {
    // Each entry counts its JSON plus 64 bytes: about 164 here, so three fit in 500.
    const cache = new LruCache({ maxBytes: 500, maxEntryBytes: 500 });
    for (const key of ["k1", "k2", "k3"]) await cache.set(key, entry("A.get", {}, "x".repeat(98)), 60_000);
    await cache.get("k1"); // k2 is now the least recently used
    await cache.set("k4", entry("A.get", {}, "x".repeat(98)), 60_000);
    expect(await cache.get("k2")).toBeUndefined();
    expect(await cache.get("k1")).toBeDefined();
    expect(cache.evictions).toBe(1);
    // An evicted key is no longer listed under its namespace.
    expect(await cache.invalidate("A.get")).toBe(3);
  });
});
