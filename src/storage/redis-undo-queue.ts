import type { Clock } from "../clock/clock.js";
import type { RedisConnection } from "../redis/redis-connection.js";
import { UNDO_SCRIPT } from "./redis-storage-scripts.js";
import type { StoragePart, StoredResourceMeta } from "./storage.js";

/** How often a failed write's undo is tried again while Redis does not answer. */
const UNDO_RETRY_MS = 1_000;
/** Undos kept for trying again; past this, the oldest are given up (their keys still expire). */
const UNDO_LIMIT = 1_000;

/** A write that failed and must not show up later. */
export interface PendingUndo {
  readonly id: string;
  readonly version: number;
  /** The metadata the failed write set. */
  readonly json: string;
  /** The metadata it replaced, if any. */
  readonly previousJson: string | undefined;
  readonly previous: StoredResourceMeta | undefined;
  /** When the failed write's keys expire by themselves: no need to undo past that. */
  readonly expiresAt: number;
}

/** Where `RedisStorage` keeps a resource's keys. */
interface RedisStorageKeys {
  metaKey(id: string): string;
  blobKey(id: string, version: number, part: StoragePart): string;
}

/**
 * The undos of `RedisStorage`'s failed writes. A command that timed out against a hung
 * Redis still runs once it is back, so a write reported as failed is undone right behind it
 * on the same connection, and again every second until Redis answers (bounded in number;
 * an undo past its write's expiry is dropped, the keys expire by themselves).
 *
 * @example
 * ```ts
 * const undos = new RedisUndoQueue(connection, keys, () => clock);
 * undos.undo({ id, version, json, previousJson, previous, expiresAt }); // then throw the write's error
 * ```
 */
export class RedisUndoQueue {
  private readonly pending = new Map<string, PendingUndo>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: RedisStorageKeys,
    private readonly clock: () => Clock,
  ) {}

  /** Sends the undo of a failed write now (right behind it) and again until Redis answers. */
  undo(undo: PendingUndo): void {
    const key = `${undo.id}:${undo.version}`;
    this.pending.delete(key);
    if (this.pending.size >= UNDO_LIMIT) {
      const oldest = this.pending.keys().next().value;
      if (oldest !== undefined) this.pending.delete(oldest);
    }
    this.pending.set(key, undo);
    this.send(key, undo);
  }

  /** Stops trying again (the storage closes). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private send(key: string, undo: PendingUndo): void {
    const { id, version, previous } = undo;
    const previousTtl = previous ? Math.ceil(previous.expiresAt - this.clock().now()) : 0;
    const restore = undo.previousJson !== undefined && previousTtl > 0 ? undo.previousJson : "";
    this.connection.client
      .eval(
        UNDO_SCRIPT,
        3,
        this.keys.metaKey(id),
        this.keys.blobKey(id, version, "content"),
        this.keys.blobKey(id, version, "index"),
        undo.json,
        restore,
        Math.max(1, previousTtl),
        version,
        previous?.version === version ? "1" : "0",
      )
      .then(
        () => {
          if (this.pending.get(key) === undo) this.pending.delete(key);
        },
        () => this.retry(),
      );
  }

  private retry(): void {
    if (this.timer || this.connection.client.status === "end") return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      for (const [key, undo] of this.pending) {
        if (undo.expiresAt <= this.clock().now()) this.pending.delete(key);
        else this.send(key, undo);
      }
    }, UNDO_RETRY_MS);
    this.timer.unref();
  }
}
