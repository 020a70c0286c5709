/**
 * The handler's side of ephemeral resources (`ctx.resources`): types only. The ephemeral
 * capability implements them; the handler contract names them here so that it depends on
 * no capability.
 */

/** What a handler learns about a resource it created or changed. */
export interface ResourceInfo {
  uri: string;
  name: string;
  mimeType: string;
  size: number;
  /** Items, lines or bytes. */
  total: number;
  version: number;
  createdAt: string;
  expiresAt: string;
}

/** Options of `ctx.resources.create`. */
export interface CreateResourceOptions {
  name?: string;
  description?: string;
  mimeType?: string;
  /** Time to live in milliseconds (default: the app's `ephemeral.defaultTtl`). */
  ttl?: number;
  /** `"owner"` (default): only the caller may list and read it; `"global"`: everyone. */
  scope?: "owner" | "global";
}

/** A slice of a stored resource, self-describing. */
export interface ResourceSlice {
  uri: string;
  /** The version read: if it changes between slices, the content changed mid-walk. */
  version: number;
  kind: "json-array" | "text" | "bytes";
  offset: number;
  count: number;
  /** Items, lines or bytes in the whole resource. */
  total: number;
  /** Where the next slice starts, or null at the end. */
  nextOffset: number | null;
  hasMore: boolean;
  items?: unknown[];
  lines?: string[];
  /** Base64, for binary content. */
  bytes?: string;
  /** Present when the entry at `offset` alone was over the token budget and was skipped. */
  skipped?: { position: number; tokens: number; budget: number };
}

/**
 * `ctx.resources`: ephemeral resources by hand, owned by the caller.
 *
 * @example
 * ```ts
 * const report = await ctx.resources.create(rows, { name: "Q3 report", ttl: 600_000 });
 * return [resourceLink({ uri: report.uri, name: report.name }), text(`${report.total} rows stored`)];
 * ```
 */
export interface ResourceHandle {
  create(content: unknown, options?: CreateResourceOptions): Promise<ResourceInfo>;
  /** Replaces the content of a resource this caller created; its version goes up by one. */
  update(uri: string, content: unknown): Promise<ResourceInfo>;
  delete(uri: string): Promise<boolean>;
  /** A slice (items, lines or bytes from `offset`), not held to a budget: this is the server reading. */
  read(uri: string, range?: { offset?: number; limit?: number }): Promise<ResourceSlice>;
}
