import type { Clock } from "../clock/clock.js";

/** How stored content is laid out, which decides what an offset counts. */
export type ContentKind = "json-array" | "text" | "bytes";

/** Metadata of a stored ephemeral resource. */
export interface StoredResourceMeta {
  /**
   * Server-generated id (22 base64url characters): random, or a digest of the owner and a
   * URI the handler chose; never client text itself.
   */
  readonly id: string;
  readonly uri: string;
  /** Who may list and read it; null for a global resource. */
  readonly owner: string | null;
  /** Who created it: only they may update or delete it (even a global one). */
  readonly creator: string;
  readonly name: string;
  readonly description?: string;
  readonly mimeType: string;
  readonly kind: ContentKind;
  /** Content size in bytes. */
  readonly size: number;
  /** Items of a JSON array, lines of text, or bytes. */
  readonly total: number;
  /** Starts at 1; every update adds one, so a reader can tell the content changed mid-walk. */
  readonly version: number;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** The two parts stored per version: the content and its offset index. */
export type StoragePart = "content" | "index";

/**
 * Where ephemeral resources live; behind the `STORAGE` token. Each version's content is
 * stored with an index of item or line offsets built at write time, so a slice anywhere
 * in a 100 MB resource costs two small range reads, never a scan from the start.
 *
 * Implementations must make `put` atomic (a reader sees the old version or the new one),
 * read ranges without loading whole blobs, and never build a path from anything but the
 * server-generated id.
 */
export interface ResourceStorage {
  /**
   * Stores a version (replacing the previous one once it is complete). With `expected`,
   * only if the stored version is still that one (0: only if none is stored), else
   * `VersionConflictError` and nothing is written: two writers that read the same version
   * cannot both replace it. A storage shared by several processes must check it
   * atomically; one used by a single process may rely on the caller's own ordering.
   */
  put(meta: StoredResourceMeta, content: Uint8Array, index: Uint8Array, expected?: number): Promise<void>;
  /** The current metadata, or undefined when missing. */
  stat(id: string): Promise<StoredResourceMeta | undefined>;
  /** Bytes `[start, end)` of one part of one version; fewer at the end of the part. */
  read(id: string, version: number, part: StoragePart, start: number, end: number): Promise<Uint8Array>;
  /** Deletes every version; resolves false when there was nothing. */
  delete(id: string): Promise<boolean>;
  /** Metadata of every stored resource (expired ones may appear; callers filter by the clock). */
  list(): AsyncIterable<StoredResourceMeta>;
  /**
   * Metadata of the resources whose `owner` is `owner` (null: the global ones), at a cost
   * in their number, not in every owner's (expired ones may appear). Optional: without
   * it, the manager keeps that index itself from its own writes, which is right only
   * when no other process writes to the same storage.
   */
  listByOwner?(owner: string | null): AsyncIterable<StoredResourceMeta>;
  /**
   * Byte usage shared by every process on this storage, kept by the storage itself
   * (`RedisStorage`): quotas then hold across instances. Without it, each app counts
   * what it sees.
   */
  readonly usage?: SharedUsage;
  /**
   * The app's `CLOCK`, given before the first write: every `expiresAt` is on that clock.
   * A storage that expires keys by itself (Redis TTLs) counts the time left from it, not
   * from `Date.now()`, so a test clock far from the wall clock neither drops a resource at
   * once nor keeps it for years. Optional: a storage that never expires by itself ignores it.
   */
  useClock?(clock: Clock): void;
  /** Releases connections and timers; the app calls it when it closes. */
  close?(): Promise<void>;
}

/** The limits a claim is checked against. */
export interface UsageLimits {
  readonly perCreator: number;
  readonly total: number;
}

/** What a storage's usage ledger holds per resource (for choosing what to evict). */
export interface UsageRecord {
  readonly id: string;
  readonly creator: string;
  readonly owner: string | null;
  readonly size: number;
  readonly createdAt: number;
  readonly expiresAt: number;
}

/** The answer to a claim: granted (with how to take it back), or which quota it would pass. */
export type UsageClaim =
  | {
      readonly granted: true;
      /** Takes the claim back after its write failed, so the bytes are not counted. */
      revert(): Promise<void>;
    }
  | { readonly granted: false; readonly quota: "owner" | "total"; readonly used: number };

/**
 * Per-creator and total byte counts of a shared storage, changed atomically across
 * processes. `claim` records a version about to be written (replacing the record of its
 * id) only if both quotas still hold; a write that then fails is reverted. Deleting a
 * resource through the storage drops its record; expired records are dropped as claims
 * go by.
 */
export interface SharedUsage {
  /** Records `meta`'s bytes if both quotas still hold; otherwise says which quota refused it. */
  claim(meta: StoredResourceMeta, limits: UsageLimits, now: number): Promise<UsageClaim>;
  /** Every live record (the rare path: making room when the total quota is reached). */
  records(now: number): Promise<UsageRecord[]>;
}

/** The storage backend failed; the message is safe to show to a client. */
export class StorageError extends Error {
  override readonly name: string = "StorageError";
}

/** The stored version is not the one a write expected: someone else wrote first; read it again. */
export class VersionConflictError extends StorageError {
  override readonly name = "VersionConflictError";
}
