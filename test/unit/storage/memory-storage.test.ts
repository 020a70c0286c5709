import { describe, expect, it } from "vitest";
import { MemoryStorage } from "../../../src/storage/memory-storage.js";
import { StorageError } from "../../../src/storage/storage.js";
import { metaFor } from "../../support/storage-contract.js";

/** Raw bytes: their index is empty, so a resource's size is exactly `n`. */
const bytes = (n: number, fill: number) => new Uint8Array(n).fill(fill);

const collect = async (storage: MemoryStorage) => {
  const all = [];
  for await (const meta of storage.list()) all.push(meta.id);
  return all;
};

describe("MemoryStorage", () => {
  it("refuses a write past maxBytes with an error naming the fix, and stores nothing", async () => {
    const storage = new MemoryStorage({ maxBytes: 100 });
    expect(storage.capacityBytes).toBe(100);
    const small = metaFor(bytes(60, 1));
    await storage.put(small.meta, small.content, small.index);
    const big = metaFor(bytes(60, 2));
    const refused = storage.put(big.meta, big.content, big.index);
    await expect(refused).rejects.toBeInstanceOf(StorageError);
    await expect(refused).rejects.toThrow(
      /memory storage is full \(60 of 100 bytes used, 60 more needed\).*maxBytes/,
    );
    expect(await storage.stat(big.meta.id)).toBeUndefined();
    expect(await collect(storage)).toEqual([small.meta.id]);
  });

  it("counts a replaced version's bytes once, and frees a deleted resource's bytes", async () => {
    const storage = new MemoryStorage({ maxBytes: 100 });
    const first = metaFor(bytes(80, 1));
    await storage.put(first.meta, first.content, first.index);
    // 90 bytes would not fit beside the 80 stored, but it replaces them.
    const second = metaFor(bytes(90, 2), { id: first.meta.id, version: 2 });
    await storage.put(second.meta, second.content, second.index);
    expect(await storage.stat(first.meta.id)).toEqual(second.meta);
    expect(await storage.delete(first.meta.id)).toBe(true);
    const other = metaFor(bytes(100, 3));
    await storage.put(other.meta, other.content, other.index);
    expect([...(await storage.read(other.meta.id, 1, "content", 98, 200))]).toEqual([3, 3]);
  });

  it("reads a copy: changing the bytes read never changes what is stored", async () => {
    const storage = new MemoryStorage();
    const stored = metaFor(bytes(4, 1));
    await storage.put(stored.meta, stored.content, stored.index);
    const read = await storage.read(stored.meta.id, 1, "content", 0, 4);
    read.fill(9);
    expect([...(await storage.read(stored.meta.id, 1, "content", 0, 4))]).toEqual([1, 1, 1, 1]);
  });

  it("says a version is gone once it is replaced, so a reader starts again", async () => {
    const storage = new MemoryStorage();
    const first = metaFor(["a"]);
    await storage.put(first.meta, first.content, first.index);
    const second = metaFor(["b"], { id: first.meta.id, version: 2 });
    await storage.put(second.meta, second.content, second.index);
    await expect(storage.read(first.meta.id, 1, "content", 0, 10)).rejects.toThrow(/version 1 .* is gone/);
  });

  it("defaults to a 256 MiB cap", () => {
    expect(new MemoryStorage().capacityBytes).toBe(256 * 1024 * 1024);
  });
});
