import type { AggregateBounds, PageLink, StreamChunkOptions, TextFormat } from "./definitions.js";

/**
 * Resolved specs: what the builder makes of the decorators' options at start-up, after
 * checking them and filling defaults. They live on the frozen definition of each
 * operation, so pipeline stages never read raw metadata.
 */

/** `@Paginated`, checked and with defaults. */
export interface PaginationSpec {
  readonly stableKey: readonly string[];
  readonly limit: number;
  readonly maxLimit: number;
  readonly order: "asc" | "desc";
  readonly fields: readonly string[] | undefined;
  readonly defaultFields: readonly string[] | undefined;
  /** `"links"`: items answered as `resource_link`s made by `link`. */
  readonly as: "items" | "links";
  readonly link: ((item: unknown) => PageLink) | undefined;
  /** Present for stream chunks (`stream` option), with `graceMs` and `settleMs` filled in. */
  readonly stream: StreamChunkSpec | undefined;
  /** Pages of a walk grow (`adaptive: true`); `maxLimit` is then above `limit`. */
  readonly adaptive: boolean;
  /** The `text` option as declared (the tool's text format is resolved with `@Tool`'s and the app's). */
  readonly text: TextFormat | undefined;
  /** One line of text per item (`line`), instead of a table. */
  readonly line: ((item: unknown) => string) | undefined;
  /** The `aggregate` input's bounds as declared (the app's fill the rest), or false: no such input. */
  readonly aggregate: false | AggregateBounds;
}

/**
 * `stream` of `@Paginated`, checked, with the grace of a live read (default 250 ms) and
 * the settle lag of a time window (default 1 ms) decided.
 */
export interface StreamChunkSpec extends StreamChunkOptions {
  readonly graceMs: number;
  readonly settleMs: number;
}
