import { afterAll, describe, expect, it } from "vitest";
import { RedisCache } from "../../../src/cache/redis-cache.js";
import type { CacheEntry } from "../../../src/cache/result-cache.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";

const prefix = randomPrefix("redis-cache-unit");
const available = await redisAvailable();

describe.runIf(available)("RedisCache", () => {
  const caches: RedisCache[] = [];
  let n = 0;
  /** Two instances on one Redis and prefix, like two app processes. */
  const pair = async () => {
    const shared = `${prefix}p${n++}:`;
    const [a, b] = [
      new RedisCache({ url: REDIS_URL, prefix: shared }),
      new RedisCache({ url: REDIS_URL, prefix: shared }),
    ];
    caches.push(a, b);
    await Promise.all([a.ready(), b.ready()]);
    return [a, b] as const;
  };
  afterAll(async () => {
    await Promise.all(caches.map((c) => c.close()));
    await deletePrefix(prefix);
  });
  const entry = (input: unknown, value: unknown = { rows: [1] }): CacheEntry => ({
    namespace: "Orders.list",
    input,
    value,
    expiresAt: 123,
  });

  it("serves an entry stored after a miss to every instance", async () => {
    const [a, b] = await pair();
    expect(await a.get("Orders.list:k1")).toBeUndefined();
    await a.set("Orders.list:k1", entry({ page: 1 }), 60_000);
    expect(await b.get("Orders.list:k1")).toEqual(entry({ page: 1 }));
  });

  it("does not store what no miss of this instance asked for", async () => {
    const [a, b] = await pair();
    await a.set("Orders.list:k1", entry({}), 60_000);
    expect(await b.get("Orders.list:k1")).toBeUndefined();
  });

  it("never serves a result computed before an invalidation, even if it is stored after it", async () => {
    const [a, b] = await pair();
    expect(await a.get("Orders.list:k1")).toBeUndefined(); // a starts computing
    await a.set("Orders.list:k0", entry({ other: true }), 60_000); // not asked for: ignored
    expect(await b.get("Orders.list:k2")).toBeUndefined();
    await b.set("Orders.list:k2", entry({ page: 2 }), 60_000);
    expect(await b.invalidate("Orders.list")).toBe(1); // the data changed meanwhile
    await a.set("Orders.list:k1", entry({ page: 1 }, "stale"), 60_000); // a's late result
    expect(await b.get("Orders.list:k1")).toBeUndefined();
    expect(await b.get("Orders.list:k2")).toBeUndefined();
  });

  it("drops only the entries a matcher picks", async () => {
    const [a, b] = await pair();
    for (const id of [1, 2, 3]) {
      expect(await a.get(`Orders.list:k${id}`)).toBeUndefined();
      await a.set(`Orders.list:k${id}`, entry({ customer: id }), 60_000);
    }
    expect(await b.invalidate("Orders.list", (input) => (input as { customer: number }).customer !== 2)).toBe(
      2,
    );
    expect(await b.get("Orders.list:k2")).toEqual(entry({ customer: 2 }));
    expect(await b.get("Orders.list:k1")).toBeUndefined();
    expect(await b.invalidate("Other.ns", () => true)).toBe(0);
  });

  it("keeps once-records shared: the first claim stores, later ones read it", async () => {
    const [a, b] = await pair();
    expect(await a.records.claim("state:1", "running", 60_000)).toBeUndefined();
    expect(await b.records.claim("state:1", "other", 60_000)).toBe("running");
    await b.records.put("state:1", "done", 60_000);
    expect(await a.records.claim("state:1", "again", 60_000)).toBe("done");
    // An invalidation never drops a record.
    await a.invalidate("state");
    expect(await a.records.claim("state:1", "x", 60_000)).toBe("done");
  });
});
