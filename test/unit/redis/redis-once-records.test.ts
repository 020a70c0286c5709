import { afterAll, describe, expect, it } from "vitest";
import { closeRedis, connectRedis, redisConnection } from "../../../src/redis/redis-connection.js";
import { redisOnceRecords, ttlPx } from "../../../src/redis/redis-once-records.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";

const prefix = randomPrefix("redis-once-records-unit");
const available = await redisAvailable();
afterAll(async () => {
  if (available) await deletePrefix(prefix);
});

describe("ttlPx", () => {
  it("rounds up to a whole, positive number of milliseconds", () => {
    expect([0, 0.2, 1, 1.5, 600_000].map(ttlPx)).toEqual([1, 1, 1, 2, 600_000]);
  });
});

describe.runIf(available)("redisOnceRecords", () => {
  it("claims a key once: the first claim stores, later claims (from any connection) read what it holds", async () => {
    const one = redisConnection({ url: REDIS_URL });
    const two = redisConnection({ url: REDIS_URL });
    await Promise.all([connectRedis(one), connectRedis(two)]);
    try {
      const keyOf = (key: string) => `${prefix}once:${key}`;
      const a = redisOnceRecords(one, keyOf);
      const b = redisOnceRecords(two, keyOf);
      const claims = await Promise.all([a.claim("s1", "from a", 60_000), b.claim("s1", "from b", 60_000)]);
      // Exactly one of two racing claims stores its value; the other reads it.
      expect(claims.filter((earlier) => earlier === undefined)).toHaveLength(1);
      const stored = claims.find((earlier) => earlier !== undefined);
      expect(["from a", "from b"]).toContain(stored);
      await a.put("s1", "settled", 60_000);
      expect(await b.claim("s1", "again", 60_000)).toBe("settled");
      expect(await one.client.pttl(keyOf("s1"))).toBeGreaterThan(50_000);
    } finally {
      await Promise.all([closeRedis(one), closeRedis(two)]);
    }
  });

  it("lets a record expire with its ttl, after which the key can be claimed anew", async () => {
    const connection = redisConnection({ url: REDIS_URL });
    await connectRedis(connection);
    try {
      const records = redisOnceRecords(connection, (key) => `${prefix}once:${key}`);
      expect(await records.claim("short", "first", 1)).toBeUndefined();
      // Wait for Redis to drop it (by its own clock), not for a fixed time.
      while ((await connection.client.exists(`${prefix}once:short`)) === 1)
        await new Promise((r) => setImmediate(r));
      expect(await records.claim("short", "second", 60_000)).toBeUndefined();
    } finally {
      await closeRedis(connection);
    }
  });
});
