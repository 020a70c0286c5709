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
  /**
   * The resource's URI, chosen by the handler (default `ephemeral://<tool>/<id>`, with an
   * id the server generates): any absolute URI, such as `results://search/abc123` or
   * `output://pdf/7.pdf`, that no declared `@Resource` URI or template matches. Refused
   * (the call fails with a `ResourceLimitError` saying why): a relative or malformed URI,
   * a `#fragment`, more than 2,048 characters, the `ephemeral://` scheme, a declared one.
   *
   * Each owner has its own resources at a URI: another owner's `results://x` is another
   * resource, never seen or overwritten. Creating again at a URI you already hold
   * replaces it (its version goes up by one). With `scope: "global"` the URI is shared:
   * a global resource another owner holds there is refused until it expires. Where you
   * hold your own resource and a global one has the same URI, you read your own.
   * Keep secrets out of the URI: it appears in links and in `resources/list`.
   */
  uri?: string;
  name?: string;
  description?: string;
  mimeType?: string;
  /** Time to live in milliseconds (default: the app's `ephemeral.defaultTtlMs`, 24 hours). */
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
 * `ctx.resources`: ephemeral resources by hand, owned by the caller. Every method takes
 * the URI `create` returned, a server-generated `ephemeral://` one or one the handler chose.
 *
 * @example
 * ```ts
 * const report = await ctx.resources.create(rows, { name: "Q3 report", ttl: 600_000 });
 * const hits = await ctx.resources.create(found, { uri: `results://search/${ctx.callId}` });
 * return [resourceLink({ uri: report.uri, name: report.name }), text(`${report.total} rows stored`)];
 * ```
 */
export interface ResourceHandle {
  /** Stores content (text, bytes or JSON) for the caller; see `CreateResourceOptions` for the URI rules. */
  create(content: unknown, options?: CreateResourceOptions): Promise<ResourceInfo>;
  /** Replaces the content of a resource this caller created; its version goes up by one. */
  update(uri: string, content: unknown): Promise<ResourceInfo>;
  /** Deletes a resource this caller created; resolves false when there was none to delete. */
  delete(uri: string): Promise<boolean>;
  /** A slice (items, lines or bytes from `offset`), not held to a budget: this is the server reading. */
  read(uri: string, range?: { offset?: number; limit?: number }): Promise<ResourceSlice>;
}
