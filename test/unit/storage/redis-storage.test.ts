import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock/clock.js";
import { scanKeys } from "../../../src/redis/redis-connection.js";
import { RedisStorage } from "../../../src/storage/redis-storage.js";
import { StorageError, type StoredResourceMeta, VersionConflictError } from "../../../src/storage/storage.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";
import { metaFor } from "../../support/storage-contract.js";

const prefix = randomPrefix("redis-storage-unit");
const available = await redisAvailable();

async function collect(listing: AsyncIterable<StoredResourceMeta>): Promise<string[]> {
  const ids: string[] = [];
  for await (const meta of listing) ids.push(meta.id);
  return ids.sort();
}

describe("RedisStorage options", () => {
  it("refuses a chunk size under 1 KiB, naming the option", () => {
    expect(() => new RedisStorage({ url: REDIS_URL, chunkBytes: 100 })).toThrow(
      new StorageError("RedisStorage chunkBytes must be an integer of at least 1024, not 100"),
    );
  });
});

describe.runIf(available)("RedisStorage", () => {
  let redis: Redis;
  const storages: RedisStorage[] = [];
  let n = 0;
  const make = async (options: { chunkBytes?: number; clock?: ManualClock } = {}) => {
    const storagePrefix = `${prefix}s${n++}:`;
    const storage = new RedisStorage({
      url: REDIS_URL,
      prefix: storagePrefix,
      chunkBytes: options.chunkBytes,
    });
    if (options.clock) storage.useClock(options.clock);
    storages.push(storage);
    await storage.ready();
    return { storage, storagePrefix };
  };
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await Promise.all(storages.map((s) => s.close()));
    await deletePrefix(prefix);
    redis.disconnect();
  });

  it("keeps each resource under its hash tag, with TTLs counted on the app's clock", async () => {
    // A clock years from the wall clock: the TTL is the time left on it, not on Date.now().
    const clock = new ManualClock(Date.UTC(2040, 0, 1));
    const { storage, storagePrefix } = await make({ clock });
    const { meta, content, index } = metaFor(["a"], {
      createdAt: clock.now(),
      expiresAt: clock.now() + 30_000,
    });
    await storage.put(meta, content, index);
    const keys = [
      `${storagePrefix}m:{${meta.id}}`,
      `${storagePrefix}c:{${meta.id}}:1`,
      `${storagePrefix}x:{${meta.id}}:1`,
    ];
    expect(await redis.exists(...keys)).toBe(3);
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(25_000);
      expect(ttl).toBeLessThanOrEqual(30_000);
    }
  });

  it("writes large content in chunks, reads it back whole and leaves no temporary keys", async () => {
    const { storage, storagePrefix } = await make({ chunkBytes: 1024 });
    const bytes = new Uint8Array(10_000).map((_, i) => (i * 13) % 256);
    const { meta, content, index } = metaFor(bytes);
    await storage.put(meta, content, index);
    expect(Buffer.from(await storage.read(meta.id, 1, "content", 0, 10_000)).equals(Buffer.from(bytes))).toBe(
      true,
    );
    expect([...(await storage.read(meta.id, 1, "content", 2047, 2050))]).toEqual([
      ...bytes.subarray(2047, 2050),
    ]);
    for await (const keys of scanKeys(redis, `${storagePrefix}t:*`)) expect(keys).toEqual([]);
  });

  it("lists one owner's resources from its index, the global ones apart", async () => {
    const { storage } = await make();
    const alice = [metaFor("a1", { owner: "alice" }), metaFor("a2", { owner: "alice" })];
    const bob = metaFor("b1", { owner: "bob" });
    const global = metaFor("g1", { owner: null });
    for (const { meta, content, index } of [...alice, bob, global]) await storage.put(meta, content, index);
    expect(await collect(storage.listByOwner("alice"))).toEqual(alice.map((r) => r.meta.id).sort());
    expect(await collect(storage.listByOwner(null))).toEqual([global.meta.id]);
    await storage.delete(alice[0]?.meta.id as string);
    expect(await collect(storage.listByOwner("alice"))).toEqual([alice[1]?.meta.id]);
    expect(await collect(storage.list())).toHaveLength(3);
  });

  it("drops expired entries of an owner's index by the app's clock", async () => {
    const clock = new ManualClock(1_000_000);
    const { storage } = await make({ clock });
    const short = metaFor("short", { owner: "carol", expiresAt: clock.now() + 60_000 });
    const long = metaFor("long", { owner: "carol", expiresAt: clock.now() + 600_000 });
    for (const { meta, content, index } of [short, long]) await storage.put(meta, content, index);
    clock.advance(120_000);
    expect(await collect(storage.listByOwner("carol"))).toEqual([long.meta.id]);
  });

  it("refuses a stale expected version across two instances on the same prefix", async () => {
    const { storage, storagePrefix } = await make();
    const other = new RedisStorage({ url: REDIS_URL, prefix: storagePrefix });
    storages.push(other);
    await other.ready();
    const first = metaFor("v1");
    await storage.put(first.meta, first.content, first.index, 0);
    const mine = metaFor("v2 mine", { id: first.meta.id, version: 2 });
    await storage.put(mine.meta, mine.content, mine.index, 1);
    const theirs = metaFor("v2 theirs", { id: first.meta.id, version: 2 });
    await expect(other.put(theirs.meta, theirs.content, theirs.index, 1)).rejects.toBeInstanceOf(
      VersionConflictError,
    );
    expect(await other.stat(first.meta.id)).toEqual(mine.meta);
  });

  it("frees a deleted resource's bytes in the shared usage ledger", async () => {
    const { storage } = await make();
    const { meta, content, index } = metaFor("counted");
    const limits = { perCreator: 1_000_000, total: 1_000_000 };
    expect((await storage.usage.claim(meta, limits, Date.now())).granted).toBe(true);
    await storage.put(meta, content, index);
    expect((await storage.usage.records(Date.now())).map((r) => r.id)).toEqual([meta.id]);
    expect(await storage.delete(meta.id)).toBe(true);
    expect(await storage.usage.records(Date.now())).toEqual([]);
  });
});
