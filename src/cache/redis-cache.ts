import { randomUUID } from "node:crypto";
import {
  closeRedis,
  connectRedis,
  hashTag,
  type RedisConnection,
  type RedisConnectionOptions,
  redisConnection,
} from "../redis/redis-connection.js";
import { redisOnceRecords } from "../redis/redis-once-records.js";
import { namespaceOfKey } from "./cache-key.js";
import type { CacheEntry, EntryMatcher, OnceRecords, ResultCache } from "./result-cache.js";

/** Options of `RedisCache`. */
export interface RedisCacheOptions extends RedisConnectionOptions {
  /** Prefix of every key this cache writes (default `frugal:cache:`). */
  prefix?: string;
}

/** Misses remembered (key → the generation they read) until their result is stored; past this, the oldest are forgotten. */
const MISSES_REMEMBERED = 10_000;
/** How long a namespace's generation lives at least once replaced (each write extends it to its entry's TTL). */
const GENERATION_TTL_MS = 60 * 60 * 1000;

/** What an entry holds, after its generation and a newline. */
interface StoredEntry {
  v: unknown;
  n: string;
  i: unknown;
  e: number;
}

/**
 * A `CACHE` provider shared by every app instance that points at the same Redis. Commands
 * fail fast when Redis is down (the pipeline then serves from the source), and caching
 * resumes by itself when it is back.
 *
 * Each namespace (`Service.method`) has a generation, a random token in Redis. An entry
 * is written with the generation its miss read and served only while that is still the
 * namespace's generation. Dropping a whole namespace replaces the generation: one
 * command whatever the number of entries, and no entry computed before it is ever served
 * after it, even one written late (by a slow call on another instance, or by a command a
 * hung Redis runs once it is back). An invalidation with a matcher drops the entries it
 * picks through the namespace's set of keys. Entries of a replaced generation stay until
 * their TTL or their key's next write.
 *
 * Works on Redis Cluster too (`cluster: [...]`, or a `Cluster` as `client`): every key of
 * a namespace carries the namespace as its hash tag (`<prefix>e:{<namespace>}:<key>`), so
 * each transaction and MGET stays on one slot.
 *
 * @example
 * ```ts
 * providers: [{ provide: CACHE, useValue: new RedisCache({ url: process.env.REDIS_URL, prefix: "articles:" }) }]
 * ```
 */
export class RedisCache implements ResultCache {
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  /** The generation each pending miss read ("" when its namespace had none yet). */
  private readonly misses = new Map<string, string>();

  constructor(options: RedisCacheOptions = {}) {
    this.connection = redisConnection(options);
    this.prefix = options.prefix ?? "frugal:cache:";
    this.records = redisOnceRecords(this.connection, (key) => this.recordKey(key));
  }

  /** Once-records in this Redis (SET NX), so every instance sharing it sees them. */
  readonly records: OnceRecords;

  /** Connects; `McpFactory.create` waits for this (briefly). */
  ready(): Promise<void> {
    return connectRedis(this.connection);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const [raw, generation] = await this.connection.client.mget(
      this.entryKey(key),
      this.generationKey(namespaceOfKey(key)),
    );
    const stored = raw == null || generation == null ? undefined : parseEntry(raw, generation);
    if (stored) return { value: stored.v, namespace: stored.n, input: stored.i, expiresAt: stored.e };
    this.rememberMiss(key, generation ?? "");
    return undefined;
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    const seen = this.misses.get(key);
    // Without the generation its miss read, an entry could not be told from one computed
    // before an invalidation: it is not stored.
    if (seen === undefined) return;
    this.misses.delete(key);
    const ttl = Math.max(1, Math.ceil(ttlMs));
    const generation = seen || newGeneration();
    const generationKey = this.generationKey(entry.namespace);
    const index = this.indexKey(entry.namespace);
    const body = JSON.stringify({ v: entry.value, n: entry.namespace, i: entry.input, e: entry.expiresAt });
    const transaction = this.connection.client.multi();
    // The namespace had no generation: start one (if another instance just did, this entry is never served).
    if (!seen) transaction.set(generationKey, generation, "PX", ttl, "NX");
    expectOk(
      await transaction
        .set(this.entryKey(key), `${generation}\n${body}`, "PX", ttl)
        .sadd(index, key)
        // The index and the generation live at least as long as the longest entry: NX sets a first expiry, GT extends it.
        .pexpire(index, ttl, "NX")
        .pexpire(index, ttl, "GT")
        .pexpire(generationKey, ttl, "GT")
        .exec(),
    );
  }

  async invalidate(namespace: string, match?: EntryMatcher): Promise<number> {
    const { client } = this.connection;
    const index = this.indexKey(namespace);
    const generationKey = this.generationKey(namespace);
    if (!match) {
      const replies = await client
        .multi()
        .scard(index)
        .set(generationKey, newGeneration(), "PX", GENERATION_TTL_MS)
        .del(index)
        .exec();
      expectOk(replies);
      return Number(replies?.[0]?.[1] ?? 0);
    }
    const listed = await client.multi().smembers(index).get(generationKey).exec();
    expectOk(listed);
    const keys = (listed?.[0]?.[1] ?? []) as string[];
    const generation = (listed?.[1]?.[1] ?? null) as string | null;
    if (keys.length === 0) return 0;
    const values = await client.mget(...keys.map((k) => this.entryKey(k)));
    const doomed: string[] = [];
    let dropped = 0;
    keys.forEach((key, i) => {
      const raw = values[i];
      const stored = raw == null || generation === null ? undefined : parseEntry(raw, generation);
      // Expired, or of a replaced generation: never served again, so tidied up here.
      if (!stored) doomed.push(key);
      else if (match(stored.i)) {
        doomed.push(key);
        dropped++;
      }
    });
    if (doomed.length === 0) return 0;
    expectOk(
      await client
        .multi()
        .del(...doomed.map((k) => this.entryKey(k)))
        .srem(index, ...doomed)
        .exec(),
    );
    return dropped;
  }

  async close(): Promise<void> {
    await closeRedis(this.connection);
  }

  /** Keeps the first generation a miss read: the one its computation started under. */
  private rememberMiss(key: string, generation: string): void {
    if (this.misses.has(key)) return;
    if (this.misses.size >= MISSES_REMEMBERED) {
      const oldest = this.misses.keys().next().value;
      if (oldest !== undefined) this.misses.delete(oldest);
    }
    this.misses.set(key, generation);
  }

  private entryKey(key: string): string {
    return `${this.prefix}e:${hashTag(namespaceOfKey(key))}:${key}`;
  }

  private recordKey(key: string): string {
    return `${this.prefix}r:${key}`;
  }

  private indexKey(namespace: string): string {
    return `${this.prefix}i:${hashTag(namespace)}`;
  }

  private generationKey(namespace: string): string {
    return `${this.prefix}g:${hashTag(namespace)}`;
  }
}

/** A fresh generation: random, so one that expired or was lost with its Redis never comes back. */
function newGeneration(): string {
  return randomUUID();
}

/** The entry in `raw` if it belongs to `generation` (entries written before generations have none). */
function parseEntry(raw: string, generation: string): StoredEntry | undefined {
  const newline = raw.indexOf("\n");
  if (newline < 0 || raw.slice(0, newline) !== generation) return undefined;
  return JSON.parse(raw.slice(newline + 1)) as StoredEntry;
}

/** Throws the first error of a transaction's replies (ioredis resolves them rather than rejecting). */
function expectOk(replies: Array<[Error | null, unknown]> | null): void {
  if (replies === null) throw new Error("the transaction was aborted");
  for (const [error] of replies) if (error) throw error;
}
