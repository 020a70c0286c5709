import { itemAt } from "../common/guards.js";
import type { Invocation, Next } from "../pipeline/invocation.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import { type CollectedRows, rowsFromArray, rowsFromIterable, rowsFromTrustedArray } from "./collect-rows.js";
import type { KeyValue } from "./cursor-values.js";
import { isIterable, pushedDown, withTotal } from "./handler-value.js";
import { PAGE, PAGE_READ } from "./page-context.js";
import type { PaginationSpec } from "./pagination-spec.js";
import type { KeySpec } from "./stable-key.js";
import type { StreamWindow } from "./stream-window.js";

/** How much one walk reads at most: the aggregate bounds. */
export interface WalkBounds {
  /** Items read at most (`aggregate.maxScanItems`). */
  readonly maxItems: number;
  /** Milliseconds of walking at most (`aggregate.maxScanMs`), on the process's own clock. */
  readonly maxMs: number;
}

/** Where a walk ended. */
export interface WalkEnd {
  /** Items read. */
  readonly scanned: number;
  /** Set when a bound stopped the walk before the end: which one, worded for a hint. */
  readonly bound?: string;
  /** Set when the handler answered an `isError` result: the call answers it as it is. */
  readonly error?: unknown;
}

/** One item of a walk, with its stable key. */
export type Visit = (item: unknown, key: Record<string, KeyValue>) => void;

/**
 * Reads every item of a paged tool's range server-side, by calling its handler page after
 * page as a client following `nextCursor` would (but with no cursor made or checked): for an
 * aggregate, and for a stream's `tail`. Each call sets `ctx.page` (`limit` = `maxLimit`,
 * `after` the last key read) and takes what the handler returned as the paginate stage
 * does. A handler that does not read `ctx.page` answers the whole range at once: that one
 * answer is read through, ordered by the framework, never asked for again.
 *
 * @example
 * ```ts
 * const walk = new HandlerWalk(invocation, next, spec, keySpec, window);
 * const end = await walk.read(await walk.call(null), bounds, (item) => tally.add(item));
 * ```
 */
export class HandlerWalk {
  private readonly started = performance.now();
  /** The `after` of the page last asked for (what reading its rows skips up to). */
  private lastAfter: Readonly<Record<string, KeyValue>> | null = null;

  constructor(
    private readonly invocation: Invocation,
    private readonly next: Next,
    private readonly spec: PaginationSpec,
    private readonly keySpec: KeySpec,
    private readonly window: StreamWindow | undefined,
    private readonly options: {
      /** `ctx.page.tail`, told to the handler on every call of a tail's walk. */
      readonly tail?: number | undefined;
      /** A time window's read of a live source: how long an async iterable may keep us waiting. */
      readonly waitMs?: number | undefined;
    } = {},
  ) {}

  /** Calls the handler for the page after `after` (null: the first). */
  call(after: Readonly<Record<string, KeyValue>> | null): Promise<unknown> {
    const { invocation, spec, window } = this;
    const { tail } = this.options;
    this.lastAfter = after;
    PAGE.set(invocation, {
      after,
      limit: spec.maxLimit,
      cursor: null,
      // Every field the handler may be asked for: an aggregate may name any of them.
      fields: spec.fields,
      ...(window ? { since: window.since, until: window.until } : {}),
      ...(tail === undefined ? {} : { tail }),
    });
    PAGE_READ.set(invocation, false);
    return this.next();
  }

  /**
   * Reads from `first` (what `call(null)` answered) to the end of the range, or until a
   * bound stops it, handing each item to `visit` in key order.
   */
  async read(first: unknown, bounds: WalkBounds, visit: Visit): Promise<WalkEnd> {
    let returned = first;
    let scanned = 0;
    const limit = this.spec.maxLimit;
    for (;;) {
      if (isErrorResult(returned)) return { scanned, error: returned };
      const { value } = withTotal(returned, this.invocation.definition.where);
      // A handler that ignores ctx.page returned the whole range: read it in one pass.
      const whole = PAGE_READ.find(this.invocation) !== true;
      const page = { after: null, limit: whole ? bounds.maxItems : limit, window: this.window };
      const rows = await this.rowsOf(value, page, whole);
      for (let i = 0; i < rows.items.length; i++) {
        if (scanned >= bounds.maxItems) return { scanned, bound: itemsBound(bounds) };
        scanned++;
        visit(rows.items[i], itemAt(rows.keys, i));
      }
      if (!rows.hasMore) return { scanned };
      if (whole || scanned >= bounds.maxItems) return { scanned, bound: itemsBound(bounds) };
      if (performance.now() - this.started >= bounds.maxMs)
        return { scanned, bound: `after ${bounds.maxMs} ms (aggregate.maxScanMs)` };
      returned = await this.call(rows.keys[rows.keys.length - 1] ?? null);
    }
  }

  private async rowsOf(
    value: unknown,
    page: { after: null; limit: number; window: StreamWindow | undefined },
    whole: boolean,
  ): Promise<CollectedRows> {
    const request = { ...page, after: whole ? null : this.lastAfter };
    if (Array.isArray(value)) {
      return !whole && pushedDown(value, request, this.keySpec, true)
        ? rowsFromTrustedArray(value, request, this.keySpec)
        : rowsFromArray(value, request, this.keySpec);
    }
    if (isIterable(value)) return rowsFromIterable(value, request, this.keySpec, this.options.waitMs);
    throw new Error(
      `${this.invocation.definition.where} is @Paginated, so it must return an array or an (async) iterable of items, not ${value === null ? "null" : typeof value}`,
    );
  }
}

function itemsBound(bounds: WalkBounds): string {
  return `at ${bounds.maxItems} items (aggregate.maxScanItems)`;
}
