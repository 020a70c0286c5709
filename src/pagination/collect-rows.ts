import { itemAt } from "../common/guards.js";
import type { KeyValue } from "./cursor-values.js";
import { compareKeys, type KeySpec, keyOf } from "./stable-key.js";
import { placeInWindow, type StreamWindow } from "./stream-window.js";

/** The rows of one page, each with its key, and whether more follow. */
export interface CollectedRows {
  readonly items: unknown[];
  readonly keys: Array<Record<string, KeyValue>>;
  readonly hasMore: boolean;
  /**
   * Set when the read of an async iterable gave up at its deadline (a live source that
   * went quiet): the rows are what it had yielded by then, and nobody knows what follows.
   */
  readonly cutShort?: true;
}

interface PageWindow {
  readonly after: Readonly<Record<string, KeyValue>> | null;
  readonly limit: number;
  /** For stream chunks: only items whose first key field lies in this range. */
  readonly window: StreamWindow | undefined;
}

/** True when an item's first key field lies in the stream range (always true outside streams). */
function inWindow(key: Record<string, KeyValue>, window: PageWindow, spec: KeySpec): boolean {
  if (!window.window) return true;
  return placeInWindow(key[itemAt(spec.fields, 0)] ?? null, window.window, spec.order) === "inside";
}

/**
 * Rows from an array the handler fetched itself after `ctx.page.after`: its order is
 * trusted (the database's collation decides); only `limit` are kept. Under a stream range,
 * rows outside it are dropped first, whatever the handler returned, so the chunk never
 * holds (nor reports as `last`) an item past `until`, and `hasMore` counts only rows inside.
 */
export function rowsFromTrustedArray(
  rows: readonly unknown[],
  window: PageWindow,
  spec: KeySpec,
): CollectedRows {
  let keyed = rows.map((item, i) => ({ item, key: keyOf(item, spec, i) }));
  if (window.window) keyed = keyed.filter((k) => inWindow(k.key, window, spec));
  const kept = keyed.slice(0, window.limit);
  return {
    items: kept.map((k) => k.item),
    keys: kept.map((k) => k.key),
    hasMore: keyed.length > window.limit,
  };
}

/** How many items of a whole array lie in the stream range (all of them outside streams). */
export function countInWindow(rows: readonly unknown[], window: PageWindow, spec: KeySpec): number {
  if (!window.window) return rows.length;
  let count = 0;
  for (let i = 0; i < rows.length; i++) if (inWindow(keyOf(rows[i], spec, i), window, spec)) count++;
  return count;
}

/**
 * Rows from a whole array: the framework orders it by the key, keeps what sorts after
 * `after`, and refuses duplicate keys (they would make pages skip items).
 */
export function rowsFromArray(rows: readonly unknown[], window: PageWindow, spec: KeySpec): CollectedRows {
  const keyed = rows
    .map((item, i) => ({ item, key: keyOf(item, spec, i) }))
    .filter((k) => inWindow(k.key, window, spec));
  keyed.sort((a, b) => compareKeys(a.key, b.key, spec));
  for (let i = 1; i < keyed.length; i++) {
    if (compareKeys(itemAt(keyed, i - 1).key, itemAt(keyed, i).key, spec) === 0) {
      throw new Error(
        `two items share the stable key ${describe(itemAt(keyed, i).key)}; @Paginated needs a unique key (add a tie-breaker field such as an id)`,
      );
    }
  }
  const { after } = window;
  const start = after === null ? 0 : firstAfter(keyed, after, spec);
  const page = keyed.slice(start, start + window.limit + 1);
  const kept = page.slice(0, window.limit);
  return {
    items: kept.map((k) => k.item),
    keys: kept.map((k) => k.key),
    hasMore: page.length > window.limit,
  };
}

/**
 * Rows from an (async) iterable trusted to yield in key order: skips items at or before
 * `after`, reads at most `limit + 1` past it, then closes the iterator.
 *
 * With `waitMs` (a time window's read: its end plus the grace), an async iterable is read
 * against a real timer: when the source has not answered by then (a live source waiting
 * for new items), the read gives up with what it has (`cutShort`), and the iterator is
 * closed with `return()` without waiting for it. An async generator that is suspended in
 * an `await` only runs that `return()` (its `finally` blocks) once the pending step
 * settles; an iterator of its own may end the pending `next()` at once. A rejection of
 * the abandoned `next()` or of `return()` is swallowed: nobody waits for them any more.
 */
export async function rowsFromIterable(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  window: PageWindow,
  spec: KeySpec,
  waitMs?: number,
): Promise<CollectedRows> {
  const items: unknown[] = [];
  const keys: Array<Record<string, KeyValue>> = [];
  let position = 0;
  let hasMore = false;
  /** Takes one item; false once the walk is over (past the range, or one past `limit`). */
  const take = (item: unknown): boolean => {
    const key = keyOf(item, spec, position++);
    if (window.after !== null && compareKeys(key, window.after, spec) <= 0) return true;
    if (window.window) {
      const place = placeInWindow(key[itemAt(spec.fields, 0)] ?? null, window.window, spec.order);
      if (place === "before") return true;
      // In key order, the first item past the range ends the walk: nothing after it can be inside.
      if (place === "past") return false;
    }
    if (items.length === window.limit) {
      hasMore = true;
      return false;
    }
    items.push(item);
    keys.push(key);
    return true;
  };
  if (waitMs === undefined || !(Symbol.asyncIterator in source)) {
    // `for await` calls the iterator's return() when we break, which closes generators and cursors.
    for await (const item of source) if (!take(item)) break;
    return { items, keys, hasMore };
  }
  const cutShort = await readWithDeadline(source[Symbol.asyncIterator](), take, waitMs);
  return cutShort ? { items, keys, hasMore, cutShort } : { items, keys, hasMore };
}

/** What the timer of a read resolves with. */
const EXPIRED = Symbol("expired");

/** `setTimeout` takes at most this (about 24.8 days); a longer delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Feeds `take` from `iterator` until it says stop, the source ends, or `waitMs` real
 * milliseconds pass; true when the timer won. Errors of the source and of a `return()`
 * asked for while the read is still on time propagate, as with `for await`.
 */
async function readWithDeadline(
  iterator: AsyncIterator<unknown>,
  take: (item: unknown) => boolean,
  waitMs: number,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<typeof EXPIRED>((resolve) => {
    timer = setTimeout(resolve, Math.min(Math.max(0, waitMs), MAX_TIMER_MS), EXPIRED);
  });
  try {
    for (;;) {
      const pending = iterator.next();
      const step = await Promise.race([pending, expired]);
      if (step === EXPIRED) {
        // The source is mid-`next()`: leave that step behind, handled, and ask it to close.
        pending.then(ignore, ignore);
        closeInBackground(iterator);
        return true;
      }
      if (step.done) return false;
      let goOn: boolean;
      try {
        goOn = take(step.value);
      } catch (error) {
        closeInBackground(iterator);
        throw error;
      }
      if (!goOn) {
        // As `for await` does on `break`, but never waiting past the deadline for it.
        await Promise.race([Promise.resolve(iterator.return?.()), expired]);
        return false;
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Asks the iterator to close without waiting for it; whatever it answers is ignored. */
function closeInBackground(iterator: AsyncIterator<unknown>): void {
  try {
    Promise.resolve(iterator.return?.()).then(ignore, ignore);
  } catch {
    // A return() that throws at once: the iterator is given up on all the same.
  }
}

function ignore(): void {}

/** Binary search: the index of the first key sorting strictly after `after`. */
function firstAfter(
  keyed: ReadonlyArray<{ key: Record<string, KeyValue> }>,
  after: Readonly<Record<string, KeyValue>>,
  spec: KeySpec,
): number {
  let low = 0;
  let high = keyed.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys(itemAt(keyed, middle).key, after, spec) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function describe(key: Record<string, KeyValue>): string {
  return Object.entries(key)
    .map(([field, value]) => `${field}=${value instanceof Date ? value.toISOString() : String(value)}`)
    .join(", ");
}
