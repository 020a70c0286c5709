import { LRUCache } from "lru-cache";

const MiB = 1024 * 1024;

/** What identifies one version of an HTTP body: its `ETag` and `Last-Modified` headers. */
export interface BodyValidators {
  readonly etag?: string;
  readonly lastModified?: string;
}

/** A body downloaded whole (its server ignored or refused `Range`), with its validators. */
export interface CachedBody extends BodyValidators {
  readonly bytes: Uint8Array;
}

/** Options of `HttpBodyCache`. */
export interface HttpBodyCacheOptions {
  /** Bytes held across all bodies (default 64 MiB); the least recently used go first. */
  maxBytes?: number;
  /**
   * Largest body kept (default half of `maxBytes`: 32 MiB). It is also the default
   * `maxFullBytes` of `httpByteSource`, which refuses a larger body.
   */
  maxEntryBytes?: number;
  /**
   * How long a body served without `ETag` or `Last-Modified` is trusted (default 5
   * minutes). A body with validators has no age limit: each source checks it on first use.
   */
  maxAgeMs?: number;
}

/**
 * The bodies of HTTP resources whose server ignores or refuses `Range`, downloaded once and
 * shared by every `httpByteSource` of the same URL (and request headers), so sources made
 * per call do not download the whole file for every chunk. Bounded in bytes (LRU), with a
 * per-body cap; one download per key at a time (concurrent callers share it); a failed
 * download is never kept; a body whose `ETag`/`Last-Modified` a later response contradicts
 * is dropped.
 *
 * @example
 * ```ts
 * const pdfs = new HttpBodyCache({ maxBytes: 256 * 1024 * 1024, maxEntryBytes: 64 * 1024 * 1024 });
 * readByteChunk(httpByteSource(url, { cache: pdfs }), range);
 * ```
 */
export class HttpBodyCache {
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  readonly maxAgeMs: number;
  private readonly bodies: LRUCache<string, CachedBody>;
  private readonly inFlight = new Map<string, Promise<CachedBody | undefined>>();

  constructor(options: HttpBodyCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 * MiB;
    requireCount("maxBytes", this.maxBytes, 1);
    this.maxEntryBytes = options.maxEntryBytes ?? Math.max(1, Math.floor(this.maxBytes / 2));
    requireCount("maxEntryBytes", this.maxEntryBytes, 1);
    if (this.maxEntryBytes > this.maxBytes) {
      throw new RangeError(
        `HttpBodyCache: maxEntryBytes (${this.maxEntryBytes}) must not exceed maxBytes (${this.maxBytes})`,
      );
    }
    this.maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
    requireCount("maxAgeMs", this.maxAgeMs, 1);
    this.bodies = new LRUCache<string, CachedBody>({
      maxSize: this.maxBytes,
      maxEntrySize: this.maxEntryBytes,
      sizeCalculation: (body) => Math.max(1, body.bytes.byteLength),
    });
  }

  /** Bodies held. */
  get size(): number {
    return this.bodies.size;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.bodies.calculatedSize;
  }

  /** The body kept under `key` (and not expired), or undefined. @internal */
  get(key: string): CachedBody | undefined {
    return this.bodies.get(key);
  }

  /** Keeps `body` under `key` when it fits `maxEntryBytes`; says whether it was kept. @internal */
  set(key: string, body: CachedBody): boolean {
    if (body.bytes.byteLength > this.maxEntryBytes) return false;
    const validated = body.etag !== undefined || body.lastModified !== undefined;
    this.bodies.set(key, body, { ttl: validated ? 0 : this.maxAgeMs });
    return this.bodies.has(key);
  }

  /**
   * One load per key at a time: gives the load in flight for `key` if there is one (its
   * `load` is then not called), else the body kept under it, else runs `load` and keeps
   * the body it gives (when it fits). `undefined` (nothing to keep: the server serves
   * ranges) is shared but not kept. A failure reaches every caller sharing it and is not
   * kept, so the next call tries again.
   *
   * @internal
   */
  load(key: string, load: () => Promise<CachedBody | undefined>): Promise<CachedBody | undefined> {
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const kept = this.bodies.get(key);
    if (kept) return Promise.resolve(kept);
    let started: Promise<CachedBody | undefined>;
    try {
      started = load();
    } catch (error) {
      started = Promise.reject(error);
    }
    const loading = started
      .then((body) => {
        if (body) this.set(key, body);
        return body;
      })
      .finally(() => {
        if (this.inFlight.get(key) === loading) this.inFlight.delete(key);
      });
    this.inFlight.set(key, loading);
    return loading;
  }

  /**
   * Drops the body kept under `key` when a response's validators show another version
   * (a different `ETag`, else a different `Last-Modified`); says whether it dropped one.
   * A response that carries neither says nothing and drops nothing.
   *
   * @internal
   */
  revoke(key: string, seen: BodyValidators): boolean {
    const kept = this.bodies.peek(key);
    if (!kept || !isOtherVersion(kept, seen)) return false;
    return this.bodies.delete(key);
  }

  /** Drops the body kept under `key`, or only that body when `body` is given. @internal */
  delete(key: string, body?: CachedBody): boolean {
    if (body !== undefined && this.bodies.peek(key) !== body) return false;
    return this.bodies.delete(key);
  }

  /** Drops every body (downloads in flight finish and are kept). */
  clear(): void {
    this.bodies.clear();
  }
}

/** True when `seen` shows a version other than `kept`'s; false when `seen` carries no validator. */
export function isOtherVersion(kept: BodyValidators, seen: BodyValidators): boolean {
  if (seen.etag !== undefined) return seen.etag !== kept.etag;
  if (seen.lastModified !== undefined) return seen.lastModified !== kept.lastModified;
  return false;
}

/**
 * The process-wide cache `httpByteSource` uses by default: 64 MiB, bodies up to 32 MiB,
 * bodies without validators trusted for 5 minutes.
 */
export const sharedHttpBodyCache = new HttpBodyCache();

function requireCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`HttpBodyCache: ${name} must be a whole number >= ${min} (got ${value})`);
  }
}
