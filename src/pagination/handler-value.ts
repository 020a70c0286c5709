import { isPlainObject } from "../results/shape-tool-result.js";
import type { PageRequest } from "./page-request.js";
import { compareKeys, type KeySpec, keyOf } from "./stable-key.js";

/**
 * Whether an array is the page the handler fetched itself after `ctx.page.after`. Reading
 * `ctx.page` is the sign; two checks that need no collation catch a handler that read it
 * but returned everything anyway (more than `limit + 1` rows, or the cursor's own row
 * again), which would otherwise repeat one page forever.
 */
export function pushedDown(
  rows: readonly unknown[],
  request: Pick<PageRequest, "after" | "limit">,
  keySpec: KeySpec,
  pageWasRead: boolean,
): boolean {
  if (!pageWasRead || rows.length > request.limit + 1) return false;
  if (request.after === null || rows.length === 0) return true;
  return compareKeys(keyOf(rows[0], keySpec, 0), request.after, keySpec) !== 0;
}

/** An array, a generator, a database cursor: what a handler may return for its items. */
export function isIterable(value: unknown): value is AsyncIterable<unknown> | Iterable<unknown> {
  if (value === null || typeof value !== "object") return false;
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

/** `{ items, total }` from a handler: the items to page, and the size of the whole walk. */
export function withTotal(value: unknown, where: string): { value: unknown; total: number | undefined } {
  if (!isPlainObject(value) || !("items" in value)) return { value, total: undefined };
  const { items, total } = value;
  if (total !== undefined && (typeof total !== "number" || !Number.isSafeInteger(total) || total < 0)) {
    throw new Error(
      `${where} returned { items, total } with a total that is not a whole number of 0 or more: ${String(total)}`,
    );
  }
  return { value: items, total };
}
