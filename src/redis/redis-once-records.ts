import type { OnceRecords } from "../common/once-records.js";
import type { RedisConnection } from "./redis-connection.js";

/**
 * Once-records in Redis (`SET … NX GET`: the claim and the read of what was there in one
 * step), so every instance sharing this Redis sees them. `keyOf` places a record's key under
 * the provider's prefix.
 *
 * @example
 * ```ts
 * readonly records = redisOnceRecords(this.connection, (key) => `${this.prefix}once:${key}`);
 * ```
 */
export function redisOnceRecords(connection: RedisConnection, keyOf: (key: string) => string): OnceRecords {
  return {
    claim: async (key, value, ttlMs) => {
      const earlier = await connection.client.set(keyOf(key), value, "PX", ttlPx(ttlMs), "NX", "GET");
      return earlier ?? undefined;
    },
    put: async (key, value, ttlMs) => {
      await connection.client.set(keyOf(key), value, "PX", ttlPx(ttlMs));
    },
  };
}

/** A whole, positive number of milliseconds, as `PX` takes it. */
export function ttlPx(ttlMs: number): number {
  return Math.max(1, Math.ceil(ttlMs));
}
