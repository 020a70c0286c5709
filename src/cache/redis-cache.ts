import {
  closeRedis,
  connectRedis,
  type RedisConnection,
  type RedisConnectionOptions,
  redisConnection,
} from "../redis/redis-connection.js";
import type { CacheEntry, EntryMatcher, ResultCache } from "./result-cache.js";

/** Options of `RedisCache`. */
export interface RedisCacheOptions extends RedisConnectionOptions {
  /** Prefix of every key this cache writes (default `frugal:cache:`). */
  prefix?: string;
}

/**
 * A `CACHE` provider shared by every app instance that points at the same Redis. Each
 * namespace (`Service.method`) keeps a set of its keys, so an invalidation drops exactly
 * its entries without scanning the database. Commands fail fast when Redis is down (the
 * pipeline then serves from the source), and caching resumes by itself when it is back.
 *
 * @example
 * ```ts
 * providers: [{ provide: CACHE, useValue: new RedisCache({ url: process.env.REDIS_URL, prefix: "articles:" }) }]
 * ```
 */
export class RedisCache implements ResultCache {
  private readonly connection: RedisConnection;
  private readonly prefix: string;

  constructor(options: RedisCacheOptions = {}) {
    this.connection = redisConnection(options);
    this.prefix = options.prefix ?? "frugal:cache:";
  }

  /** Connects; `McpFactory.create` waits for this (briefly). */
  ready(): Promise<void> {
    return connectRedis(this.connection);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const raw = await this.connection.client.get(this.entryKey(key));
    if (raw === null) return undefined;
    const stored = JSON.parse(raw) as { v: unknown; n: string; i: unknown; e: number };
    return { value: stored.v, namespace: stored.n, input: stored.i, expiresAt: stored.e };
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    const ttl = Math.max(1, Math.ceil(ttlMs));
    const index = this.indexKey(entry.namespace);
    const body = JSON.stringify({ v: entry.value, n: entry.namespace, i: entry.input, e: entry.expiresAt });
    // The index lives at least as long as its longest entry: NX sets a first expiry, GT extends it.
    await this.connection.client
      .multi()
      .set(this.entryKey(key), body, "PX", ttl)
      .sadd(index, key)
      .pexpire(index, ttl, "NX")
      .pexpire(index, ttl, "GT")
      .exec();
  }

  async invalidate(namespace: string, match?: EntryMatcher): Promise<number> {
    const { client } = this.connection;
    const index = this.indexKey(namespace);
    const keys = await client.smembers(index);
    if (keys.length === 0) return 0;
    let doomed = keys;
    if (match) {
      const values = await client.mget(...keys.map((k) => this.entryKey(k)));
      doomed = keys.filter((_key, i) => {
        const raw = values[i];
        return raw === null || raw === undefined || match((JSON.parse(raw) as { i: unknown }).i);
      });
    }
    if (doomed.length === 0) return 0;
    const removed = await client
      .multi()
      .del(...doomed.map((k) => this.entryKey(k)))
      .srem(index, ...doomed)
      .exec();
    return Number(removed?.[0]?.[1] ?? 0);
  }

  async close(): Promise<void> {
    await closeRedis(this.connection);
  }

  private entryKey(key: string): string {
    return `${this.prefix}e:${key}`;
  }

  private indexKey(namespace: string): string {
    return `${this.prefix}i:${namespace}`;
  }
}
