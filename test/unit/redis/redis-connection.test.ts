import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import {
  closeRedis,
  clusterOptions,
  connectRedis,
  hashTag,
  isCluster,
  redisConnection,
  redisOptions,
  scanKeys,
} from "../../../src/redis/redis-connection.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";

const prefix = randomPrefix("redis-connection-unit");
const available = await redisAvailable();
afterAll(async () => {
  if (available) await deletePrefix(prefix);
});

describe("redis options", () => {
  it("fail fast: no offline queue, no retries per request, the given command timeout, lazy connection", () => {
    const options = redisOptions(75);
    expect(options).toMatchObject({
      enableOfflineQueue: false,
      commandTimeout: 75,
      maxRetriesPerRequest: 0,
      lazyConnect: true,
    });
    expect(redisOptions().commandTimeout).toBe(250);
    // Reconnection backs off, capped at two seconds.
    const retry = options.retryStrategy as (attempt: number) => number;
    expect([0, 1, 2, 10].map(retry)).toEqual([100, 200, 400, 2000]);
  });

  it("carry over to a cluster: per-node settings, and the retry strategy for the cluster", () => {
    const options = clusterOptions(redisOptions(75));
    expect(options.enableOfflineQueue).toBe(false);
    expect(options.lazyConnect).toBe(true);
    expect(options.retryDelayOnMoved).toBe(0);
    expect(options.redisOptions).toMatchObject({ commandTimeout: 75, maxRetriesPerRequest: 0 });
    expect(options.redisOptions).not.toHaveProperty("retryStrategy");
    expect((options.clusterRetryStrategy as (n: number) => number | null)(3)).toBe(800);
    expect((clusterOptions({}).clusterRetryStrategy as (n: number) => number | null)(3)).toBeNull();
  });

  it("hash tags wrap the text in braces", () => {
    expect(hashTag("abc")).toBe("{abc}");
  });
});

describe.runIf(available)("redis connections", () => {
  it("opens an owned client lazily, connects it, and closes it so it can connect again", async () => {
    const connection = redisConnection({ url: REDIS_URL });
    expect(connection.owned).toBe(true);
    expect(isCluster(connection.client)).toBe(false);
    expect(connection.client.status).toBe("wait");
    await connectRedis(connection);
    expect(await connection.client.ping()).toBe("PONG");
    await closeRedis(connection);
    expect(connection.client.status).toBe("end");
    await connectRedis(connection);
    expect(await connection.client.ping()).toBe("PONG");
    await closeRedis(connection);
  });

  it("leaves an adopted client alone: neither connected nor closed by the provider", async () => {
    const own = new Redis(REDIS_URL, { lazyConnect: true });
    const connection = redisConnection({ client: own });
    expect(connection).toEqual({ client: own, owned: false });
    await connectRedis(connection);
    expect(own.status).toBe("wait");
    await own.connect();
    await closeRedis(connection);
    expect(await own.ping()).toBe("PONG");
    own.disconnect();
  });

  it("scans every key under a pattern, page by page, and nothing else", async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const keys = Array.from({ length: 120 }, (_, i) => `${prefix}scan:${i}`);
      await redis.mset(Object.fromEntries(keys.map((k) => [k, "1"])));
      await redis.set(`${prefix}other`, "1");
      const seen = new Set<string>();
      let pages = 0;
      for await (const page of scanKeys(redis, `${prefix}scan:*`, 10)) {
        pages++;
        for (const key of page) seen.add(key);
      }
      expect([...seen].sort()).toEqual([...keys].sort());
      expect(pages).toBeGreaterThan(1);
    } finally {
      redis.disconnect();
    }
  });
});
