/** App-wide settings of ephemeral resources (`McpFactory.create(…, { ephemeral })`). */
export interface EphemeralSettings {
  /** Lifetime when none is given (default 24 hours). */
  defaultTtlMs?: number | undefined;
  /**
   * Bytes one owner may hold at once (default 256 MiB: two 100 MB results). A write past
   * it is refused with an error that names this setting.
   */
  maxBytesPerOwner?: number | undefined;
  /**
   * Bytes all owners may hold at once (default 2 GiB). `MemoryStorage` is also bounded by
   * its own `maxBytes` (default 256 MiB); File, Redis and S3 storage only by this.
   */
  maxTotalBytes?: number | undefined;
  /** Delete a session's resources when it ends (default false; the TTL bounds them anyway). */
  deleteOnSessionEnd?: boolean | undefined;
  /** How often expired resources are swept (default one minute). */
  sweepIntervalMs?: number | undefined;
  /** Name of the slice-reading tool (default `read_resource`). */
  readToolName?: string | undefined;
  /** Name of the search tool (default `search_resource`). */
  searchToolName?: string | undefined;
  /** Register the resource tools even when no method is `@Ephemeral` (for `ctx.resources.create`). */
  tools?: boolean | undefined;
  /**
   * Largest resource `resources/read` returns whole (default 16 MiB); a larger one is read
   * in slices with the resource tools, so no single response holds hundreds of megabytes.
   */
  maxReadBytes?: number | undefined;
}

/**
 * Defaults of the settings above, sized for real use: a 100 MB result spills with
 * default settings on File, Redis and S3 storage (and lives as long as the documents say).
 */
export const EPHEMERAL_DEFAULTS = Object.freeze({
  defaultTtlMs: 24 * 60 * 60 * 1000,
  maxBytesPerOwner: 256 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
});
