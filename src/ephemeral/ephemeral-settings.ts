import { fieldOf } from "../common/guards.js";
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
   * Bytes all owners may hold at once. Default: 2 GiB, or the storage's own capacity when
   * it reports a smaller one (`MemoryStorage`: its `maxBytes`, default 256 MiB), so the
   * quota, which evicts anonymous sessions' results to make room, is met before the
   * storage refuses. Set above the storage's capacity, the storage's cap wins: writes past
   * it are refused (with an error naming `MemoryStorage` `maxBytes`), nothing is evicted.
   * `MemoryStorage` also counts each result's index (8 bytes per line or array item)
   * against its cap; results of many short lines may meet it just before the quota.
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
  /** Name of the query tool (default `query_resource`). */
  queryToolName?: string | undefined;
  /** Register the resource tools even when no method is `@Ephemeral` (for `ctx.resources.create`). */
  tools?: boolean | undefined;
  /**
   * Largest resource `resources/read` returns whole (default 16 MiB); a larger one is read
   * in slices with the resource tools, so no single response holds hundreds of megabytes.
   */
  maxReadBytes?: number | undefined;
  /**
   * Items the resource tools read at most when they walk a paginated declared resource's
   * pages (default 100,000; whole pages, so the walk stops after the page that reaches it).
   * A walk that stops early says so (`partial: true`) and names the URI to go on with.
   */
  maxWalkItems?: number | undefined;
  /** Milliseconds such a walk takes at most, on the app's clock (default 2,000). */
  maxWalkMs?: number | undefined;
}

/**
 * Defaults of the settings above, sized for real use: a 100 MB result spills with
 * default settings on File, Redis and S3 storage (and lives as long as the documents say).
 */
export const EPHEMERAL_DEFAULTS = Object.freeze({
  defaultTtlMs: 24 * 60 * 60 * 1000,
  maxBytesPerOwner: 256 * 1024 * 1024,
  maxTotalBytes: 2 * 1024 * 1024 * 1024,
  maxReadBytes: 16 * 1024 * 1024,
});

/**
 * The settings in force on `storage`: `maxTotalBytes`, when not given, is the default or
 * the storage's `capacityBytes` if that is smaller. Given values are kept as they are.
 *
 * @example
 * ```ts
 * settingsForStorage(undefined, new MemoryStorage()).maxTotalBytes; // 268435456 (256 MiB)
 * settingsForStorage({ maxTotalBytes: 1e9 }, new MemoryStorage()).maxTotalBytes; // 1e9: the storage refuses first
 * ```
 */
export function settingsForStorage(
  settings: EphemeralSettings | undefined,
  storage: object,
): EphemeralSettings {
  if (settings?.maxTotalBytes !== undefined) return settings;
  const capacity = fieldOf(storage, "capacityBytes");
  const reported = typeof capacity === "number" && capacity > 0 ? capacity : Number.POSITIVE_INFINITY;
  return { ...settings, maxTotalBytes: Math.min(EPHEMERAL_DEFAULTS.maxTotalBytes, reported) };
}
