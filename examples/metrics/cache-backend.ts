import {
  CACHE,
  EVENT_BUS,
  InMemoryEventBus,
  LruCache,
  type ProviderEntry,
  RedisCache,
  RedisEventBus,
} from "frugal-mcp";

/** Where the cache and the event bus live. */
export interface CacheBackendOptions {
  /** Redis to share a cache through; without it, everything stays in this process. */
  redisUrl?: string;
  /** Key prefix of the shared cache (default `metrics:cache:`); instances that share must agree. */
  prefix?: string;
  /** Pub/sub channel of the shared bus (default `metrics:events`). */
  channel?: string;
}

/**
 * The `CACHE` and `EVENT_BUS` providers: with a Redis URL, a `RedisCache` and a
 * `RedisEventBus`, so every instance pointed at the same Redis reads the same entries and
 * an invalidation on one (a `record_metric` call) reaches the others (and their resource
 * subscribers); without one, the framework's in-memory defaults, spelled out.
 *
 * Factories, not values: a Redis client is only created when an app is built, each app
 * gets its own, and `app.close()` closes it. If Redis goes down, calls are served from
 * the store (the cache fails open) and caching resumes when it is back.
 *
 * @example
 * ```ts
 * providers: [MetricsStore, ...cacheBackend({ redisUrl: process.env.REDIS_URL })]
 * ```
 */
export function cacheBackend(options: CacheBackendOptions = {}): ProviderEntry[] {
  const { redisUrl: url } = options;
  if (!url) {
    return [
      { provide: CACHE, useFactory: () => new LruCache({ maxBytes: 50_000_000 }) },
      { provide: EVENT_BUS, useClass: InMemoryEventBus },
    ];
  }
  return [
    { provide: CACHE, useFactory: () => new RedisCache({ url, prefix: options.prefix ?? "metrics:cache:" }) },
    {
      provide: EVENT_BUS,
      useFactory: () => new RedisEventBus({ url, channel: options.channel ?? "metrics:events" }),
    },
  ];
}
