// Over 300 lines on purpose: one class, the whole STORAGE contract on Redis (put with its commit and
// undo, read, delete, both listings); its scripts, undo queue and error wording live beside it.
import { randomBytes } from "node:crypto";
import { type Clock, SystemClock } from "../clock/clock.js";
import {
  closeRedis,
  connectRedis,
  hashTag,
  type RedisConnection,
  type RedisConnectionOptions,
  redisConnection,
  scanKeys,
} from "../redis/redis-connection.js";
import {
  asBuffer,
  conflict,
  describe,
  escapeGlob,
  expectOk,
  gone,
  untagged,
} from "./redis-storage-errors.js";
import { COMMIT_SCRIPT, PUT_SCRIPT } from "./redis-storage-scripts.js";
import { RedisUndoQueue } from "./redis-undo-queue.js";
import { RedisUsage } from "./redis-usage.js";
import { isResourceId } from "./resource-id.js";
import {
  type ResourceStorage,
  type SharedUsage,
  StorageError,
  type StoragePart,
  type StoredResourceMeta,
} from "./storage.js";
import { checkedId, checkedVersion, checkRange } from "./storage-checks.js";
import { parseStoredMeta } from "./stored-meta.js";

/** Options of `RedisStorage`. */
export interface RedisStorageOptions extends RedisConnectionOptions {
  /** Prefix of every key this storage writes (default `frugal:res:`). */
  prefix?: string;
  /**
   * Largest payload of one command (default 4 MiB): bigger contents are written with
   * APPEND and read with several GETRANGEs, so no command carries (or copies) a whole
   * 100 MB blob, and each one fits in the command timeout. On a slow link to Redis, lower
   * it or raise `commandTimeoutMs` (4 MiB takes about 340 ms at 100 Mbit/s).
   */
  chunkBytes?: number;
  /**
   * Longest a single command may take before it fails (default 2,000 ms here, not the
   * 250 ms of caches and event buses: a command carries up to `chunkBytes` of a large
   * result, and a busy Redis or host must not fail a 100 MB write half way). Applies to
   * the connection this storage opens; a `client` of your own keeps its own setting.
   */
  commandTimeoutMs?: number;
}

/** Default command timeout of the connection a `RedisStorage` opens. */
const STORAGE_COMMAND_TIMEOUT_MS = 2000;

/** Metadata keys fetched per SCAN page, and metadata read at once when listing an owner's resources. */
const SCAN_COUNT = 500;

/** How much longer than the resource a chunked write's temporary keys may live (if the writer dies). */
const TEMPORARY_MARGIN_MS = 10 * 60 * 1000;

/**
 * A `STORAGE` provider on Redis or Redis Cluster, shared by every app instance pointing at
 * the same Redis and prefix, and surviving their restarts. Per resource: `<prefix>m:{<id>}`
 * holds the metadata, `<prefix>c:{<id>}:<version>` and `<prefix>x:{<id>}:<version>` the
 * content and its index (one hash tag per resource: its keys share a cluster slot). All
 * carry a TTL to the resource's `expiresAt`, so Redis drops them even if no app sweeps. A
 * version's blobs and its metadata are written by one script (a reader sees the old
 * version or the new one), only if the stored version is still the one the writer read,
 * so concurrent updates from several instances never lose one; the previous version's
 * blobs are deleted afterwards. Reads are `GETRANGE`s of the requested bytes; listing all
 * is `SCAN` (each master of a cluster), never `KEYS`.
 *
 * Each owner's resources are indexed (`<prefix>o:…`, a sorted set by expiry), so listing
 * one owner's resources costs their number. Quotas are counted in Redis (`usage`, keys
 * `<prefix>u:{<prefix>}:…`), atomically for all instances.
 *
 * A write reported as failed never shows up later. A command that timed out against a
 * hung Redis still runs once it is back, so a failed write is undone right behind it on
 * the same connection (and again until Redis answers); and if even the lookup before a
 * write fails, nothing is written.
 *
 * The TTLs count the time left until `expiresAt` on the app's `CLOCK` (`useClock`, which the
 * app calls; the wall clock until then), so a `ManualClock` in tests keeps a resource for
 * its TTL, whatever date it shows. Use a Redis whose eviction policy cannot drop these keys
 * (`noeviction` or `volatile-*` with room to spare): an evicted blob makes its resource
 * unreadable.
 *
 * @example
 * ```ts
 * providers: [{ provide: STORAGE, useValue: new RedisStorage({ url: process.env.REDIS_URL, prefix: "mcp:res:" }) }]
 * ```
 */
export class RedisStorage implements ResourceStorage {
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  private readonly chunkBytes: number;
  /** Undoes failed writes, right behind them and until Redis answers. */
  private readonly undos: RedisUndoQueue;
  /** The clock `expiresAt` is on: the app's, once it calls `useClock`. */
  private clock: Clock = new SystemClock();
  /** Byte usage shared by every instance on this Redis and prefix. */
  readonly usage: SharedUsage;
  // The same ledger, typed for `forget`, which only this storage calls (on delete).
  private readonly ledger: RedisUsage;

  constructor(options: RedisStorageOptions = {}) {
    this.connection = redisConnection({
      ...options,
      commandTimeoutMs: options.commandTimeoutMs ?? STORAGE_COMMAND_TIMEOUT_MS,
    });
    this.prefix = options.prefix ?? "frugal:res:";
    this.chunkBytes = options.chunkBytes ?? 4 * 1024 * 1024;
    const keys = {
      metaKey: (id: string) => this.metaKey(id),
      blobKey: (id: string, version: number, part: StoragePart) => this.blobKey(id, version, part),
    };
    this.undos = new RedisUndoQueue(this.connection, keys, () => this.clock);
    const ledger = (name: string) => `${this.prefix}u:${hashTag(this.prefix)}:${name}`;
    this.usage = this.ledger = new RedisUsage(
      this.connection,
      [ledger("records"), ledger("expiries"), ledger("creators"), ledger("total")],
      () => this.clock.now(),
    );
    if (!Number.isSafeInteger(this.chunkBytes) || this.chunkBytes < 1024) {
      throw new StorageError(
        `RedisStorage chunkBytes must be an integer of at least 1024, not ${this.chunkBytes}`,
      );
    }
  }

  /** Counts TTLs from `clock` (the app's `CLOCK`; the app calls this before its first write). */
  useClock(clock: Clock): void {
    this.clock = clock;
  }

  /** Connects; `McpFactory.create` waits for this (briefly). */
  ready(): Promise<void> {
    return connectRedis(this.connection);
  }

  async put(
    meta: StoredResourceMeta,
    content: Uint8Array,
    index: Uint8Array,
    expected?: number,
  ): Promise<void> {
    const id = checkedId(meta.id);
    const version = checkedVersion(meta.version);
    const condition = expected === undefined ? "" : String(expected);
    const { client } = this.connection;
    const json = JSON.stringify(meta);
    // What the write replaces, so that it can be undone; if even that cannot be read, nothing is written.
    let previousJson: string | null;
    try {
      previousJson = await client.get(this.metaKey(id));
    } catch (error) {
      throw new StorageError(`redis storage: writing resource ${id} failed (${describe(error)})`);
    }
    const previous = previousJson === null ? undefined : parseStoredMeta(previousJson, id);
    if (expected !== undefined && (previous?.version ?? 0) !== expected) throw conflict(id, expected);
    let conflicted = false;
    try {
      // Listed before it exists, never the other way round: the listing skips what it cannot find.
      await this.indexOwner(meta);
      conflicted = await this.writeVersion(id, version, meta, json, content, index, condition);
    } catch (error) {
      this.undos.undo({
        id,
        version,
        json,
        previousJson: previousJson ?? undefined,
        previous,
        expiresAt: meta.expiresAt,
      });
      throw new StorageError(`redis storage: writing resource ${id} failed (${describe(error)})`);
    }
    if (conflicted) throw conflict(id, expected ?? 0);
    if (previous && previous.version !== version) {
      await client
        .del(this.blobKey(id, previous.version, "content"), this.blobKey(id, previous.version, "index"))
        .catch(() => 0);
    }
  }

  /**
   * Writes a version's blobs and its metadata by one script, only if the stored version is
   * still `condition` (empty: whatever it is); true when it was not (nothing written). Blobs
   * over `chunkBytes` are first written in chunks to temporary keys the script renames.
   */
  private async writeVersion(
    id: string,
    version: number,
    meta: StoredResourceMeta,
    json: string,
    content: Uint8Array,
    index: Uint8Array,
    condition: string,
  ): Promise<boolean> {
    const { client } = this.connection;
    const ttl = this.ttlOf(meta.expiresAt);
    const contentKey = this.blobKey(id, version, "content");
    const indexKey = this.blobKey(id, version, "index");
    if (content.byteLength <= this.chunkBytes && index.byteLength <= this.chunkBytes) {
      const args = [asBuffer(content), asBuffer(index), json, ttl, condition];
      return (await client.eval(PUT_SCRIPT, 3, contentKey, indexKey, this.metaKey(id), ...args)) === -1;
    }
    const suffix = randomBytes(8).toString("hex");
    const temporary = [
      `${this.prefix}t:${hashTag(id)}:${suffix}:c`,
      `${this.prefix}t:${hashTag(id)}:${suffix}:x`,
    ] as const;
    try {
      await this.writeChunked(temporary[0], content, ttl + TEMPORARY_MARGIN_MS);
      await this.writeChunked(temporary[1], index, ttl + TEMPORARY_MARGIN_MS);
      const keys = [...temporary, contentKey, indexKey, this.metaKey(id)];
      // Counted from now, not from before the write: the resource expires at expiresAt.
      const committed = await client.eval(
        COMMIT_SCRIPT,
        5,
        ...keys,
        json,
        this.ttlOf(meta.expiresAt),
        condition,
      );
      if (committed !== 1 && committed !== -1)
        throw new Error("the blobs expired before the write completed");
      return committed === -1;
    } finally {
      await client.del(...temporary).catch(() => 0);
    }
  }

  async stat(id: string): Promise<StoredResourceMeta | undefined> {
    const checked = checkedId(id);
    let raw: string | null;
    try {
      raw = await this.connection.client.get(this.metaKey(checked));
    } catch (error) {
      throw new StorageError(`redis storage: reading resource ${checked} failed (${describe(error)})`);
    }
    if (raw === null) return undefined;
    const meta = parseStoredMeta(raw, checked);
    if (!meta) throw new StorageError(`redis storage: the metadata of resource ${checked} is malformed`);
    return meta;
  }

  async read(
    id: string,
    version: number,
    part: StoragePart,
    start: number,
    end: number,
  ): Promise<Uint8Array> {
    const key = this.blobKey(checkedId(id), checkedVersion(version), part);
    checkRange(start, end);
    const chunks: Buffer[] = [];
    let at = start;
    let total = 0;
    try {
      if (end <= start) {
        // Nothing to read, but a version that is gone must still say so.
        if ((await this.connection.client.exists(key)) === 0) throw gone(version);
        return new Uint8Array(0);
      }
      // One transaction per chunk: EXISTS tells "gone" from "past the end" (both read as empty).
      while (at < end) {
        const stop = Math.min(end, at + this.chunkBytes);
        const replies = await this.connection.client
          .multi()
          .exists(key)
          .getrangeBuffer(key, at, stop - 1)
          .exec();
        expectOk(replies);
        if (replies?.[0]?.[1] !== 1) throw gone(version);
        const chunk = replies?.[1]?.[1] as Buffer;
        chunks.push(chunk);
        total += chunk.length;
        if (chunk.length < stop - at) break;
        at = stop;
      }
    } catch (error) {
      if (error instanceof StorageError) throw error;
      throw new StorageError(`redis storage: reading resource ${id} failed (${describe(error)})`);
    }
    if (chunks.length === 1) return chunks[0] as Buffer;
    return chunks.length === 0 ? new Uint8Array(0) : Buffer.concat(chunks, total);
  }

  async delete(id: string): Promise<boolean> {
    const checked = checkedId(id);
    const { client } = this.connection;
    try {
      const raw = await client.get(this.metaKey(checked));
      if (raw === null) return false;
      const version = parseStoredMeta(raw, checked)?.version;
      // Metadata first: from then on nobody finds the blobs.
      const transaction = client.multi().del(this.metaKey(checked));
      if (version !== undefined) {
        transaction.del(this.blobKey(checked, version, "content"), this.blobKey(checked, version, "index"));
      }
      const replies = await transaction.exec();
      expectOk(replies);
      const deleted = replies?.[0]?.[1] === 1;
      const meta = parseStoredMeta(raw, checked);
      // Tidying: a stale index entry is skipped (and dropped) by the next listing, and a
      // record left in the ledger counts until the resource's expiry.
      if (meta) await client.zrem(this.ownerKey(meta.owner), checked).catch(() => 0);
      if (deleted) await this.ledger.forget(checked).catch(() => {});
      return deleted;
    } catch (error) {
      throw new StorageError(`redis storage: deleting resource ${checked} failed (${describe(error)})`);
    }
  }

  async *list(): AsyncIterable<StoredResourceMeta> {
    const { client } = this.connection;
    const match = `${escapeGlob(this.prefix)}m:*`;
    const seen = new Set<string>();
    const pages = scanKeys(client, match, SCAN_COUNT)[Symbol.asyncIterator]();
    for (;;) {
      let keys: string[];
      let values: Array<string | null>;
      try {
        const page = await pages.next();
        if (page.done) return;
        keys = page.value;
        // One GET per key, not MGET: on a cluster the keys live on many slots.
        values = await Promise.all(keys.map((key) => client.get(key)));
      } catch (error) {
        throw new StorageError(`redis storage: listing resources failed (${describe(error)})`);
      }
      for (let i = 0; i < keys.length; i++) {
        const id = untagged((keys[i] as string).slice(this.prefix.length + 2));
        const raw = values[i];
        // SCAN may return a key twice; malformed or foreign keys are skipped.
        if (id === undefined || seen.has(id) || raw === null || raw === undefined) continue;
        const meta = parseStoredMeta(raw, id);
        if (!meta) continue;
        seen.add(id);
        yield meta;
      }
    }
  }

  /**
   * The resources of one owner (null: the global ones), from the owner's index: its
   * expired entries are dropped first, then each entry's metadata is read; entries whose
   * resource is gone (deleted, or a write that failed) are dropped as they are met.
   */
  async *listByOwner(owner: string | null): AsyncIterable<StoredResourceMeta> {
    const { client } = this.connection;
    const key = this.ownerKey(owner);
    let ids: string[];
    try {
      await client.zremrangebyscore(key, "-inf", this.clock.now());
      ids = await client.zrange(key, "0", "-1");
    } catch (error) {
      throw new StorageError(`redis storage: listing resources failed (${describe(error)})`);
    }
    for (let at = 0; at < ids.length; at += SCAN_COUNT) {
      const batch = ids.slice(at, at + SCAN_COUNT).filter(isResourceId);
      let values: Array<string | null>;
      try {
        values = await Promise.all(batch.map((id) => client.get(this.metaKey(id))));
      } catch (error) {
        throw new StorageError(`redis storage: listing resources failed (${describe(error)})`);
      }
      const stale: string[] = [];
      for (let i = 0; i < batch.length; i++) {
        const id = batch[i] as string;
        const raw = values[i];
        const meta = raw == null ? undefined : parseStoredMeta(raw, id);
        if (meta?.owner === owner) yield meta;
        else if (raw == null) stale.push(id);
      }
      if (stale.length > 0) await client.zrem(key, ...stale).catch(() => 0);
    }
  }

  async close(): Promise<void> {
    this.undos.stop();
    await closeRedis(this.connection);
  }

  /** SET of the first chunk (with a TTL), then APPEND of the others: no command copies the whole blob. */
  private async writeChunked(key: string, bytes: Uint8Array, ttl: number): Promise<void> {
    const { client } = this.connection;
    const whole = asBuffer(bytes);
    await client.set(key, whole.subarray(0, this.chunkBytes), "PX", ttl);
    for (let at = this.chunkBytes; at < whole.length; at += this.chunkBytes) {
      await client.append(key, whole.subarray(at, at + this.chunkBytes));
    }
  }

  /** Adds a resource to its owner's index, which lives as long as the longest of them. */
  private async indexOwner(meta: StoredResourceMeta): Promise<void> {
    const key = this.ownerKey(meta.owner);
    const ttl = this.ttlOf(meta.expiresAt);
    expectOk(
      await this.connection.client
        .multi()
        .zadd(key, meta.expiresAt, meta.id)
        .pexpire(key, ttl, "NX")
        .pexpire(key, ttl, "GT")
        .exec(),
    );
  }

  /** Milliseconds (at least 1) from the app's now until `expiresAt`, which is on the app's clock. */
  private ttlOf(expiresAt: number): number {
    return Math.max(1, Math.ceil(expiresAt - this.clock.now()));
  }

  private ownerKey(owner: string | null): string {
    return owner === null ? `${this.prefix}o:global` : `${this.prefix}o:owner:${owner}`;
  }

  private metaKey(id: string): string {
    return `${this.prefix}m:${hashTag(id)}`;
  }

  private blobKey(id: string, version: number, part: StoragePart): string {
    return `${this.prefix}${part === "content" ? "c" : "x"}:${hashTag(id)}:${version}`;
  }
}
