import type { AggregateBounds, PageLink, StreamChunkOptions, TextFormat } from "../metadata/definitions.js";

/** Options of `@Paginated`. */
export interface PaginatedOptions {
  /** Default page size (default 20). */
  limit?: number;
  /** Largest page size; larger requests are clamped to it (default 100). */
  maxLimit?: number;
  /** Direction of the stable key (default `"asc"`). */
  order?: "asc" | "desc";
  /** Fields a client may select with the `fields` input (projection). */
  fields?: readonly string[];
  /** Fields returned when the client selects none (default: all of `fields`). */
  defaultFields?: readonly string[];
  /**
   * Chunks of a stream (logs, metrics, event feeds) ordered by the first key field:
   * adds `since` and `until` inputs bounding it, and each chunk says which range it covers.
   */
  stream?: StreamChunkOptions;
  /**
   * `"links"` (tools only, with `link`): the page reads as one text block holding
   * `{ nextCursor, hasMore, count, total? }` followed by one `resource_link` per item;
   * `structuredContent` is the envelope with the link objects as its items. Default `"items"`.
   */
  as?: "items" | "links";
  /** Under `as: "links"`: the link of one item, as the handler returned it. */
  link?: (item: any) => PageLink;
  /**
   * Pages grow while a walk keeps going (needs `maxLimit` above `limit`). The first two
   * pages of a walk have `limit` items; from the third on, a page the client asks for
   * without `limit` holds twice as many as the page before really returned, up to
   * `maxLimit` and always within the budget. A `limit` the client passes is that page's
   * size, as without `adaptive`. A model that reads a whole list makes far fewer calls;
   * one that looks at one page pays exactly what it paid before, byte for byte.
   *
   * @example
   * ```ts
   * @Paginated("id", { limit: 20, maxLimit: 200, adaptive: true }) // pages of 20, 20, 40, 80, 160, 200, …
   * ```
   */
  adaptive?: boolean;
  /**
   * How a page's text reads (tools only; see {@link TextFormat}): `"json"` keeps the
   * envelope's minified JSON. The same as `@Tool`'s `text`, which it must not contradict.
   */
  text?: TextFormat;
  /**
   * One line of text per item, instead of a table (tools only): log lines, events. It gets
   * the item as the handler returned it (before any `fields` selection) and returns a
   * string; the page's envelope fields follow on their own line, and `structuredContent`
   * keeps the items. A line that is empty, holds a line break or starts with a quote is
   * written as a JSON string. Wins over the app's `text: "json"`.
   *
   * @example
   * ```ts
   * @Paginated("seq", { line: (e: LogEntry) => `${e.at} ${e.level} ${e.message}` })
   * ```
   */
  line?: (item: any) => string;
  /**
   * The `aggregate` input (tools only): `false` leaves it out; an object bounds its scans
   * (each bound defaults to the app's `aggregate` option, then to 100,000 items, 2,000 ms
   * and 1,000 groups).
   *
   * @example
   * ```ts
   * @Paginated("id", { aggregate: { maxScanItems: 20_000 } })
   * ```
   */
  aggregate?: false | AggregateBounds;
}
