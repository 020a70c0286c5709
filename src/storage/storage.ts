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
  /** Stores a version (replacing the previous one once it is complete). */
  put(meta: StoredResourceMeta, content: Uint8Array, index: Uint8Array): Promise<void>;
  /** The current metadata, or undefined when missing. */
  stat(id: string): Promise<StoredResourceMeta | undefined>;
  /** Bytes `[start, end)` of one part of one version; fewer at the end of the part. */
  read(id: string, version: number, part: StoragePart, start: number, end: number): Promise<Uint8Array>;
  /** Deletes every version; resolves false when there was nothing. */
  delete(id: string): Promise<boolean>;
  /** Metadata of every stored resource (expired ones may appear; callers filter by the clock). */
  list(): AsyncIterable<StoredResourceMeta>;
  close?(): Promise<void>;
}

/** The storage backend failed; the message is safe to show to a client. */
export class StorageError extends Error {
  override readonly name = "StorageError";
}
