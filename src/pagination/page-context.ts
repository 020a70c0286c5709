import { InvocationSlot } from "../pipeline/invocation.js";

// What a `@Paginated` handler reads from its context: declared here, on the kernel's
// `ToolContext`, so the kernel does not name pagination.
declare module "../pipeline/tool-context.js" {
  interface ToolContext {
    /** Under `@Paginated`: where this page starts and how long it is. */
    readonly page?: PageContext | undefined;
    /**
     * Under `@Paginated`: the `aggregate` input as the client sent it (validated), or
     * undefined. A handler that can answer it itself (`SELECT … GROUP BY`) returns
     * `{ groups, total }` (an {@link AggregateAnswer}); else it returns its page as usual and
     * the framework walks the pages to count.
     */
    readonly aggregate?: AggregateRequest | undefined;
  }
}

/** The page the handler is asked for (`ctx.page`): set by the `decodeCursor` stage, and by the walks for each page. */
export const PAGE = new InvocationSlot<PageContext>("pagination.page");
/** The validated `aggregate` input (`ctx.aggregate`), when the client sent one. */
export const AGGREGATE = new InvocationSlot<AggregateRequest>("pagination.aggregate");
/** True once the handler read `ctx.page`: it pushed the page into its query, so its order is trusted. */
export const PAGE_READ = new InvocationSlot<boolean>("pagination.pageRead");

/**
 * The `aggregate` input of a paged tool, as `ctx.aggregate` holds it: `groupBy` stays a
 * string or an array, as sent. Fields are dotted paths; an array field counts once per element.
 *
 * @example
 * ```ts
 * ctx.aggregate; // { groupBy: "labels", sum: "comments", top: 10 }
 * ```
 */
export interface AggregateRequest {
  readonly count?: boolean | undefined;
  readonly groupBy?: string | readonly string[] | undefined;
  readonly sum?: string | undefined;
  readonly min?: string | undefined;
  readonly max?: string | undefined;
  readonly avg?: string | undefined;
  /** Keep the N groups with the highest count. */
  readonly top?: number | undefined;
}

/**
 * What a handler that pushes `ctx.aggregate` down returns: the groups (key: an object of
 * the `groupBy` fields, `{}` without `groupBy`) and the number of items counted.
 *
 * @example
 * ```ts
 * if (ctx.aggregate?.groupBy === "site")
 *   return { groups: [{ key: { site: "tech" }, count: 100 }], total: 100 } satisfies AggregateAnswer;
 * ```
 */
export interface AggregateAnswer {
  groups: AggregateGroup[];
  total: number;
}

/** One group of an aggregate answer. */
export interface AggregateGroup {
  key: Record<string, unknown>;
  count: number;
  sum?: number | undefined;
  min?: unknown;
  max?: unknown;
  avg?: number | null | undefined;
}

/**
 * The page a `@Paginated` handler is asked for. Push `after` and `limit + 1` down into
 * the query when you can; the framework then trusts the order of what you return.
 *
 * @example
 * ```ts
 * const rows = db.prepare(
 *   "SELECT * FROM articles WHERE site = ? AND (? IS NULL OR (updated_at, slug) > (?, ?)) ORDER BY updated_at, slug LIMIT ?",
 * ).all(site, ctx.page.after?.updatedAt ?? null, ctx.page.after?.updatedAt, ctx.page.after?.slug, ctx.page.limit + 1);
 * ```
 */
export interface PageContext {
  /** The stable-key values of the last item already returned, or null on the first page. */
  readonly after: Readonly<Record<string, StableKeyValue>> | null;
  /**
   * This page's size: the `limit` requested, clamped to `maxLimit`; under `adaptive`, the
   * grown size when the client left `limit` out. Fetch `limit + 1` rows.
   */
  readonly limit: number;
  /** The cursor as the client sent it, or null. */
  readonly cursor: string | null;
  /** Fields the client selected (projection), when the tool offers `fields`. */
  readonly fields: readonly string[] | undefined;
  /** Stream chunks: exclusive lower bound of the first key field, or null. */
  readonly since?: number | Date | null | undefined;
  /** Stream chunks: inclusive upper bound of the first key field, or null. */
  readonly until?: number | Date | null | undefined;
  /**
   * Streams: the `tail` the client asked for (the newest N items). The framework reads the
   * range's pages (window by window back in time) and keeps the newest N; a handler only
   * needs it to read less.
   */
  readonly tail?: number | undefined;
}

/**
 * A value of a stable-key field, as `ctx.page.after` holds it: cursors keep its type
 * (dates stay dates, bigints stay bigints).
 */
export type StableKeyValue = string | number | boolean | bigint | Date | null;
