import { LRUCache } from "lru-cache";
import type { CacheEntry, EntryMatcher, ResultCache } from "./result-cache.js";

/** Options of `LruCache`. */
export interface LruCacheOptions {
  /** Total size cap, in bytes of JSON (default 100 MB). */
  maxBytes?: number;
  /** Largest single entry (default a tenth of `maxBytes`): larger results are returned but not stored. */
  maxEntryBytes?: number;
}

/**
 * The default `CACHE` provider: an in-memory LRU capped in bytes, not entries, so one
 * huge result cannot push the process out of memory. Expiry by the app's `CLOCK` is
 * checked by the pipeline; the TTL given here only frees memory (in real time).
 *
 * @example
 * ```ts
 * providers: [{ provide: CACHE, useValue: new LruCache({ maxBytes: 20_000_000 }) }]
 * ```
 */
export class LruCache implements ResultCache {
  private readonly entries: LRUCache<string, CacheEntry>;
  private readonly byNamespace = new Map<string, Set<string>>();
  private readonly maxEntryBytes: number;
  private evicted = 0;

  constructor(options: LruCacheOptions = {}) {
    const maxBytes = options.maxBytes ?? 100_000_000;
    this.maxEntryBytes = options.maxEntryBytes ?? Math.floor(maxBytes / 10);
    this.entries = new LRUCache<string, CacheEntry>({
      maxSize: maxBytes,
      dispose: (entry, key, reason) => {
        if (reason === "evict") this.evicted++;
        const keys = this.byNamespace.get(entry.namespace);
        if (keys?.delete(key) && keys.size === 0) this.byNamespace.delete(entry.namespace);
      },
    });
  }

  /** Entries evicted to stay under `maxBytes`. */
  get evictions(): number {
    return this.evicted;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
    const size = Buffer.byteLength(JSON.stringify(entry.value) ?? "") + 64;
    if (size > this.maxEntryBytes) return;
    this.entries.set(key, entry, { size, ttl: ttlMs });
    let keys = this.byNamespace.get(entry.namespace);
    if (!keys) {
      keys = new Set();
      this.byNamespace.set(entry.namespace, keys);
    }
    keys.add(key);
  }

  async invalidate(namespace: string, match?: EntryMatcher): Promise<number> {
    let dropped = 0;
    for (const key of [...(this.byNamespace.get(namespace) ?? [])]) {
      const entry = this.entries.peek(key, { allowStale: true });
      if (entry && match && !match(entry.input)) continue;
      if (this.entries.delete(key)) dropped++;
    }
    return dropped;
  }
}
