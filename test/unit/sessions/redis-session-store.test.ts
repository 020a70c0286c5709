import { RedisSessionStore } from "frugal-mcp";
import { afterAll, describe, expect, it } from "vitest";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";
import { record, sessionStoreContract } from "./session-store-contract.js";

const available = await redisAvailable();
const prefix = randomPrefix("redis-session-store");
const stores: RedisSessionStore[] = [];

describe.skipIf(!available)("RedisSessionStore", () => {
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await deletePrefix(prefix);
  });

  // Each test its own prefix: maxSessions counts every session under one prefix.
  let n = 0;
  const make = async () => {
    const store = new RedisSessionStore({ url: REDIS_URL, prefix: `${prefix}${n++}:` });
    stores.push(store);
    await store.ready();
    return store;
  };
  sessionStoreContract(make, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));

  it("holds maxSessions when many instances open sessions at once", async () => {
    const shared = `${prefix}race:`;
    const instances = Array.from({ length: 3 }, () => {
      const store = new RedisSessionStore({ url: REDIS_URL, prefix: shared });
      stores.push(store);
      return store;
    });
    await Promise.all(instances.map((store) => store.ready()));
    const limits = { maxSessions: 10, idleTimeoutMs: 60_000 };
    const opened = await Promise.all(
      Array.from({ length: 60 }, (_, i) => instances[i % 3]?.open(record(), limits)),
    );
    expect(opened.filter(Boolean)).toHaveLength(10);
    expect(await instances[1]?.count()).toBe(10);
  });

  it("fails fast with the client's error when Redis does not answer", async () => {
    const store = new RedisSessionStore({ url: "redis://127.0.0.1:1", prefix });
    stores.push(store);
    await expect(store.get("x", { maxSessions: 1, idleTimeoutMs: 1000 })).rejects.toThrow();
  });
});
