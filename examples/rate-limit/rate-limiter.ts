import { Redis } from "ioredis";

/** One window's verdict: whether the call may run, and when the window ends. */
export interface RateVerdict {
  readonly allowed: boolean;
  /** Calls counted in this window, this one included. */
  readonly count: number;
  /** Milliseconds until the window ends (when refused: how long to wait). */
  readonly retryAfterMs: number;
}

/** The DI token of the app's `RateLimiter`: the module provides one, `@RateLimit`'s stage resolves it. */
export const RATE_LIMITER = Symbol("RateLimiter");

/** Counts calls per key in fixed windows. */
export abstract class RateLimiter {
  /** Counts one call of `key` in the window holding `now`; allowed while the count stays within `limit`. */
  abstract take(key: string, limit: number, windowMs: number, now: number): Promise<RateVerdict>;
}

/**
 * Fixed windows in Redis, shared by every instance: one counter per key and window
 * (`INCR`), expiring with its window. The window comes from the app's clock, so tests move
 * time with a `ManualClock`; Redis expiry only tidies up.
 */
export class RedisRateLimiter extends RateLimiter {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(options: { url?: string; prefix?: string } = {}) {
    super();
    this.redis = new Redis(options.url ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379", {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
    });
    this.prefix = options.prefix ?? "rate:";
  }

  async take(key: string, limit: number, windowMs: number, now: number): Promise<RateVerdict> {
    const window = Math.floor(now / windowMs);
    const counter = `${this.prefix}${key}:${window}`;
    const [[incrError, count] = [], [expireError] = []] =
      (await this.redis
        .multi()
        .incr(counter)
        .pexpire(counter, windowMs * 2)
        .exec()) ?? [];
    if (incrError || expireError) throw incrError ?? expireError;
    const retryAfterMs = (window + 1) * windowMs - now;
    return { allowed: Number(count) <= limit, count: Number(count), retryAfterMs };
  }

  /** Closes the connection (the app calls it when it closes). */
  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
