import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
export const DATABASE_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A random key prefix per test file, so files never see each other's keys (nothing is ever flushed). */
export function randomPrefix(name: string): string {
  return `frugal-test:${name}:${randomBytes(6).toString("hex")}:`;
}

/**
 * Whether Redis answers. Under `CI=true` a missing Redis is a failure, not a skip: CI
 * must never pass by testing less.
 */
export async function redisAvailable(): Promise<boolean> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    if (process.env.CI === "true")
      throw new Error(`Redis is required under CI=true but ${REDIS_URL} did not answer: ${error}`);
    console.warn(`skipping: Redis at ${REDIS_URL} did not answer (${error})`);
    return false;
  } finally {
    client.disconnect();
  }
}

/** Deletes every key under a prefix (only this test file's keys), with SCAN, never KEYS. */
export async function deletePrefix(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
}
