import { afterAll, describe, expect, it } from "vitest";
import {
  closeRedis,
  connectRedis,
  type RedisConnection,
  redisConnection,
} from "../../../src/redis/redis-connection.js";
import { RedisUsage } from "../../../src/storage/redis-usage.js";
import { StorageError } from "../../../src/storage/storage.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";
import { metaFor } from "../../support/storage-contract.js";

const prefix = randomPrefix("redis-usage-unit");
const available = await redisAvailable();

describe.runIf(available)("RedisUsage", () => {
  const connections: RedisConnection[] = [];
  let ledgers = 0;
  /** A fresh ledger (its own four keys) on its own connection, like one app instance. */
  const ledger = async (
    name = `l${ledgers++}`,
  ): Promise<{ usage: RedisUsage; again: () => Promise<RedisUsage> }> => {
    const connection = redisConnection({ url: REDIS_URL });
    connections.push(connection);
    await connectRedis(connection);
    const keys = ["records", "expiries", "creators", "total"].map((k) => `${prefix}{${name}}:${k}`);
    return {
      usage: new RedisUsage(connection, keys as [string, string, string, string], () => 1_000),
      again: async () => (await ledger(name)).usage,
    };
  };
  afterAll(async () => {
    await Promise.all(connections.map(closeRedis));
    await deletePrefix(prefix);
  });
  const limits = { perCreator: 100, total: 150 };
  const sized = (size: number, creator: string, expiresAt = 60_000) =>
    metaFor("x", { size, creator, owner: creator, createdAt: 0, expiresAt }).meta;

  it("grants claims until a creator's quota, then says which quota refused and what is in use", async () => {
    const { usage } = await ledger();
    const first = await usage.claim(sized(60, "alice"), limits, 1_000);
    expect(first.granted).toBe(true);
    expect(await usage.claim(sized(50, "alice"), limits, 1_000)).toEqual({
      granted: false,
      quota: "owner",
      used: 60,
    });
    expect((await usage.claim(sized(80, "bob"), limits, 1_000)).granted).toBe(true);
    expect(await usage.claim(sized(20, "carol"), limits, 1_000)).toEqual({
      granted: false,
      quota: "total",
      used: 140,
    });
    const records = await usage.records(1_000);
    expect(records.map((r) => [r.creator, r.size]).sort()).toEqual([
      ["alice", 60],
      ["bob", 80],
    ]);
    expect(records[0]).not.toHaveProperty("token");
  });

  it("counts a replaced version once, so a resource can grow up to the quota", async () => {
    const { usage } = await ledger();
    const meta = sized(90, "alice");
    expect((await usage.claim(meta, limits, 1_000)).granted).toBe(true);
    expect((await usage.claim({ ...meta, size: 100, version: 2 }, limits, 1_000)).granted).toBe(true);
    expect(await usage.records(1_000)).toEqual([expect.objectContaining({ id: meta.id, size: 100 })]);
  });

  it("is shared by every instance on the same keys", async () => {
    const { usage, again } = await ledger();
    expect((await usage.claim(sized(70, "alice"), limits, 1_000)).granted).toBe(true);
    expect(await (await again()).claim(sized(70, "alice"), limits, 1_000)).toEqual({
      granted: false,
      quota: "owner",
      used: 70,
    });
  });

  it("frees the bytes of a reverted claim and of a forgotten resource", async () => {
    const { usage } = await ledger();
    const kept = sized(50, "alice");
    expect((await usage.claim(kept, limits, 1_000)).granted).toBe(true);
    const failed = await usage.claim(sized(50, "alice"), limits, 1_000);
    if (!failed.granted) throw new Error("the second claim should fit");
    await failed.revert();
    // The revert is sent, not awaited: the records show when Redis has run it.
    await expect.poll(async () => (await usage.records(1_000)).length).toBe(1);
    await usage.forget(kept.id);
    expect(await usage.records(1_000)).toEqual([]);
    expect((await usage.claim(sized(100, "alice"), limits, 1_000)).granted).toBe(true);
  });

  it("drops expired records as claims go by and hides them from records()", async () => {
    const { usage } = await ledger();
    expect((await usage.claim(sized(100, "alice", 2_000), limits, 1_000)).granted).toBe(true);
    expect(await usage.records(2_500)).toEqual([]);
    expect((await usage.claim(sized(100, "alice", 9_000), limits, 2_500)).granted).toBe(true);
  });

  it("fails with a StorageError, not a raw Redis error, when Redis is unreachable", async () => {
    const connection = redisConnection({ url: "redis://127.0.0.1:1" });
    connections.push(connection);
    const usage = new RedisUsage(
      connection,
      ["a", "b", "c", "d"].map((k) => `${prefix}{down}:${k}`) as [string, string, string, string],
    );
    await expect(usage.forget("x")).rejects.toThrow(StorageError);
    await expect(usage.records(0)).rejects.toThrow(/redis storage: reading the usage ledger failed/);
  });
});
