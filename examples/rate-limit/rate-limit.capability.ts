import { CLOCK, type Clock, defineCapability } from "frugal-mcp";
import { RATE_LIMITER, type RateLimiter } from "./rate-limiter.js";

const WINDOWS = { second: 1_000, minute: 60_000, hour: 3_600_000 } as const;

/** Options of `@RateLimit`. */
export interface RateLimitOptions {
  /** The window the limit counts in (default `"minute"`). */
  per?: keyof typeof WINDOWS;
}

/**
 * `@RateLimit(limit, { per })`: at most `limit` calls per caller (`ctx.owner`) and window,
 * counted across every instance by the app's `RateLimiter`. A call over the limit is refused
 * before the cache and the handler run (a tool answers `isError` saying when to retry).
 * Written with the capability API only: no framework file knows it.
 *
 * @example
 * ```ts
 * @Tool({ description: "Search notes" })
 * @RateLimit(5, { per: "minute" })
 * async search({ query }: { query: string }) { … }
 * ```
 */
export const RateLimit = defineCapability({
  name: "rateLimit",
  decorator: "@RateLimit",
  options: (limit: number, options: RateLimitOptions = {}) => ({ limit, per: options.per ?? "minute" }),
  // Start-up checks: a bad declaration fails naming the method, not at the first call.
  resolve(options, target) {
    if (!Number.isInteger(options.limit) || options.limit < 1)
      target.fail(`takes a whole number of calls of at least 1, not ${options.limit}`, "e.g. @RateLimit(5)");
    if (!Object.hasOwn(WINDOWS, options.per))
      target.fail(
        `takes \`per\` as one of ${Object.keys(WINDOWS).join(", ")}, not ${JSON.stringify(options.per)}`,
        'e.g. @RateLimit(5, { per: "minute" })',
      );
    return { limit: options.limit, per: options.per, windowMs: WINDOWS[options.per] };
  },
  stage: {
    // Inside the interceptors, outside the cache: a cache hit counts as a call too.
    after: "interceptors",
    create(spec, operation, services) {
      const limiter = services.resolve<RateLimiter>(RATE_LIMITER);
      const clock = services.resolve<Clock>(CLOCK);
      return async (call, next) => {
        const key = `${operation.kind}:${operation.name}:${call.ctx.owner}`;
        const verdict = await limiter.take(key, spec.limit, spec.windowMs, clock.now());
        if (!verdict.allowed) {
          const seconds = Math.ceil(verdict.retryAfterMs / 1000);
          throw new Error(
            `Rate limit: ${operation.name} takes ${spec.limit} calls per ${spec.per} per caller; retry in ${seconds} s`,
          );
        }
        return next();
      };
    },
  },
});
