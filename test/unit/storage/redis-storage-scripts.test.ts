import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMIT_SCRIPT, PUT_SCRIPT, UNDO_SCRIPT } from "../../../src/storage/redis-storage-scripts.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";

const prefix = randomPrefix("redis-storage-scripts-unit");
const available = await redisAvailable();
const meta = (version: number) => JSON.stringify({ version });

describe.runIf(available)("RedisStorage's Lua scripts, run on a real Redis", () => {
  let redis: Redis;
  let n = 0;
  /** Fresh keys for one case: content, index, meta, and temporary content and index. */
  const keys = () => {
    const base = `${prefix}{r${n++}}:`;
    return {
      content: `${base}c`,
      index: `${base}i`,
      meta: `${base}m`,
      tempContent: `${base}tc`,
      tempIndex: `${base}ti`,
    };
  };
  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await deletePrefix(prefix);
    redis.disconnect();
  });

  it("PUT writes all three keys with the TTL, and only over the expected version", async () => {
    const k = keys();
    const put = (version: number, expected: string) =>
      redis.eval(
        PUT_SCRIPT,
        3,
        k.content,
        k.index,
        k.meta,
        `c${version}`,
        `i${version}`,
        meta(version),
        60_000,
        expected,
      );
    expect(await put(1, "0")).toBe(1);
    expect(await put(2, "0")).toBe(-1);
    expect(await redis.mget(k.content, k.index, k.meta)).toEqual(["c1", "i1", meta(1)]);
    expect(await put(2, "1")).toBe(1);
    expect(await put(3, "1")).toBe(-1);
    expect(await redis.get(k.content)).toBe("c2");
    const ttl = await redis.pttl(k.meta);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Without an expected version, it always writes.
    expect(await put(9, "")).toBe(1);
    expect(await redis.get(k.meta)).toBe(meta(9));
  });

  it("PUT with an expected version refuses metadata it cannot read", async () => {
    const k = keys();
    await redis.set(k.meta, "not json");
    const result = await redis.eval(
      PUT_SCRIPT,
      3,
      k.content,
      k.index,
      k.meta,
      "c",
      "i",
      meta(1),
      60_000,
      "0",
    );
    expect(result).toBe(-1);
    expect(await redis.exists(k.content)).toBe(0);
  });

  it("COMMIT moves the temporary blobs into place, and writes nothing if one has expired", async () => {
    const k = keys();
    const commit = () =>
      redis.eval(
        COMMIT_SCRIPT,
        5,
        k.tempContent,
        k.tempIndex,
        k.content,
        k.index,
        k.meta,
        meta(1),
        60_000,
        "",
      );
    await redis.set(k.tempContent, "content");
    expect(await commit()).toBe(0);
    expect(await redis.exists(k.meta, k.content)).toBe(0);
    await redis.set(k.tempIndex, "index");
    expect(await commit()).toBe(1);
    expect(await redis.mget(k.content, k.index, k.meta)).toEqual(["content", "index", meta(1)]);
    expect(await redis.exists(k.tempContent, k.tempIndex)).toBe(0);
    expect(await redis.pttl(k.content)).toBeGreaterThan(0);
  });

  it("UNDO puts back the replaced metadata and deletes the failed version's blobs", async () => {
    const k = keys();
    await redis.set(k.meta, meta(2));
    await redis.set(k.content, "c2");
    await redis.set(k.index, "i2");
    expect(
      await redis.eval(UNDO_SCRIPT, 3, k.meta, k.content, k.index, meta(2), meta(1), 60_000, 2, "0"),
    ).toBe(1);
    expect(await redis.get(k.meta)).toBe(meta(1));
    expect(await redis.exists(k.content, k.index)).toBe(0);
  });

  it("UNDO deletes metadata that replaced nothing, and leaves a newer writer's version alone", async () => {
    const k = keys();
    await redis.set(k.meta, meta(1));
    expect(await redis.eval(UNDO_SCRIPT, 3, k.meta, k.content, k.index, meta(1), "", 0, 1, "0")).toBe(1);
    expect(await redis.exists(k.meta)).toBe(0);

    // Someone else wrote version 2 since: its blobs are the failed write's keys, kept.
    await redis.set(k.meta, meta(2));
    await redis.set(k.content, "theirs");
    expect(await redis.eval(UNDO_SCRIPT, 3, k.meta, k.content, k.index, meta(3), "", 0, 2, "0")).toBe(0);
    expect(await redis.get(k.content)).toBe("theirs");
    // A version no metadata points at is removed.
    const orphan = `${k.content}:v5`;
    await redis.set(orphan, "half-written");
    expect(await redis.eval(UNDO_SCRIPT, 3, k.meta, orphan, k.index, meta(5), "", 0, 5, "0")).toBe(0);
    expect(await redis.exists(orphan)).toBe(0);
    expect(await redis.get(k.meta)).toBe(meta(2));
  });
});
