import type { KeyValue } from "./cursor-values.js";
import { compareKeys, type KeySpec, keyOf } from "./stable-key.js";
import { placeInWindow, type StreamWindow } from "./stream-window.js";

/** The rows of one page, each with its key, and whether more follow. */
export interface CollectedRows {
  readonly items: unknown[];
  readonly keys: Array<Record<string, KeyValue>>;
  readonly hasMore: boolean;
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
  return placeInWindow(key[spec.fields[0] as string] ?? null, window.window, spec.order) === "inside";
}

/**
 * Rows from an array the handler fetched itself after `ctx.page.after`: its order is
 * trusted (the database's collation decides); only `limit` are kept.
 */
export function rowsFromTrustedArray(
  rows: readonly unknown[],
  window: PageWindow,
  spec: KeySpec,
): CollectedRows {
  const items = rows.slice(0, window.limit);
  return { items, keys: items.map((item, i) => keyOf(item, spec, i)), hasMore: rows.length > window.limit };
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
    if (
      compareKeys(
        (keyed[i - 1] as (typeof keyed)[number]).key,
        (keyed[i] as (typeof keyed)[number]).key,
        spec,
      ) === 0
    ) {
      throw new Error(
        `two items share the stable key ${describe((keyed[i] as (typeof keyed)[number]).key)}; @Paginated needs a unique key (add a tie-breaker field such as an id)`,
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
 */
export async function rowsFromIterable(
  source: AsyncIterable<unknown> | Iterable<unknown>,
  window: PageWindow,
  spec: KeySpec,
): Promise<CollectedRows> {
  const items: unknown[] = [];
  const keys: Array<Record<string, KeyValue>> = [];
  let position = 0;
  let hasMore = false;
  // `for await` calls the iterator's return() when we break, which closes generators and cursors.
  for await (const item of source) {
    const key = keyOf(item, spec, position++);
    if (window.after !== null && compareKeys(key, window.after, spec) <= 0) continue;
    if (window.window) {
      const place = placeInWindow(key[spec.fields[0] as string] ?? null, window.window, spec.order);
      if (place === "before") continue;
      // In key order, the first item past the range ends the walk: nothing after it can be inside.
      if (place === "past") break;
    }
    if (items.length === window.limit) {
      hasMore = true;
      break;
    }
    items.push(item);
    keys.push(key);
  }
  return { items, keys, hasMore };
}

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
    if (compareKeys((keyed[middle] as { key: Record<string, KeyValue> }).key, after, spec) <= 0)
      low = middle + 1;
    else high = middle;
  }
  return low;
}

function describe(key: Record<string, KeyValue>): string {
  return Object.entries(key)
    .map(([field, value]) => `${field}=${value instanceof Date ? value.toISOString() : String(value)}`)
    .join(", ");
}
