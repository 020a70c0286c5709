/** App-wide settings of ephemeral resources (`McpFactory.create(…, { ephemeral })`). */
export interface EphemeralSettings {
  /** Lifetime when none is given (default one hour). */
  defaultTtlMs?: number;
  /** Bytes one owner may hold at once (default 64 MiB). */
  maxBytesPerOwner?: number;
  /** Bytes all owners may hold at once (default 1 GiB). */
  maxTotalBytes?: number;
  /** Delete a session's resources when it ends (default false; the TTL bounds them anyway). */
  deleteOnSessionEnd?: boolean;
  /** How often expired resources are swept (default one minute). */
  sweepIntervalMs?: number;
  /** Name of the slice-reading tool (default `read_resource`). */
  readToolName?: string;
  /** Name of the search tool (default `search_resource`). */
  searchToolName?: string;
  /** Register the resource tools even when no method is `@Ephemeral` (for `ctx.resources.create`). */
  tools?: boolean;
  /**
   * Largest resource `resources/read` returns whole (default 16 MiB); a larger one is read
   * in slices with the resource tools, so no single response holds hundreds of megabytes.
   */
  maxReadBytes?: number;
}
