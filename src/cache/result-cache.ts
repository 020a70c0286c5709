import type { OnceRecords } from "../common/once-records.js";

export type { OnceRecords } from "../common/once-records.js";

/** One cached, shaped result and what invalidation needs to know about it. */
export interface CacheEntry {
  /** The shaped protocol result (JSON-safe). */
  readonly value: unknown;
  /** `Service.method`: every entry of an operation can be dropped together. */
  readonly namespace: string;
  /** The canonical input, so `invalidateOn` matchers can pick entries. */
  readonly input: unknown;
  /** When the entry stops being served, by the app's `CLOCK`. */
  readonly expiresAt: number;
}

/** Decides which entries of a namespace an invalidation drops (all when absent). */
export type EntryMatcher = (input: unknown) => boolean;

/**
 * Where shaped results are cached; behind the `CACHE` token. Implementations may throw
 * on a backend failure: the pipeline then serves from the source (fails open) and logs.
 */
export interface ResultCache {
  /** The entry kept under `key`, or undefined (missing or expired). */
  get(key: string): Promise<CacheEntry | undefined>;
  /** Stores an entry for `ttlMs`; an entry too large for the cache may be skipped. */
  set(key: string, entry: CacheEntry, ttlMs: number): Promise<void>;
  /** Drops the namespace's entries (those `match` accepts, when given); resolves with how many. */
  invalidate(namespace: string, match?: EntryMatcher): Promise<number>;
  /** Entries evicted for space so far (for `app.stats()`). */
  readonly evictions?: number;
  /**
   * Records that must hold once across every instance sharing this cache (the single
   * completion of a 2026-07-28 request state). A shared cache offers them so the record is
   * shared too; without them the app keeps such records in its own memory.
   */
  readonly records?: OnceRecords;
  /** Releases connections and timers; the app calls it when it closes. */
  close?(): Promise<void>;
}
