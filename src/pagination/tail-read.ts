import type { Invocation, Next } from "../pipeline/invocation.js";
import type { CollectedRows } from "./collect-rows.js";
import type { KeyValue } from "./cursor-values.js";
import { HandlerWalk, type WalkBounds } from "./handler-walk.js";
import type { PaginationSpec } from "./pagination-spec.js";
import type { KeySpec } from "./stable-key.js";
import type { StreamWindow } from "./stream-window.js";

/**
 * Windows in a row that may hold nothing before a tail stops stepping back: a quiet spell
 * of a live log is not its beginning, but a stream cannot say where it begins.
 */
const MAX_EMPTY_WINDOWS = 8;

/** A tail's items, or why there are none to give. */
export type TailRead =
  | {
      /** The newest N items of the range, oldest first. */
      readonly rows: CollectedRows;
      /** The range the items were read from: `since` is where the oldest window read began. */
      readonly window: StreamWindow;
    }
  | { readonly error: unknown }
  | { readonly tooLarge: string };

/**
 * Reads a stream's newest `n` items at or before the range's `until`, oldest first
 * (`tail: n`). A time window is read whole (its pages, through the handler), then the
 * window before it, and so on back until `n` items are found, `MAX_EMPTY_WINDOWS` windows
 * in a row held nothing, or a bound stops it (a window cut short by a bound is left out:
 * its items would not be the newest). A stream of sequence numbers has one range, read whole.
 *
 * @example
 * ```ts
 * const read = await readTail(invocation, next, spec, keySpec, { since, until }, 100, bounds);
 * ```
 */
export async function readTail(
  invocation: Invocation,
  next: Next,
  spec: PaginationSpec,
  keySpec: KeySpec,
  first: StreamWindow,
  n: number,
  bounds: WalkBounds,
  waitMs: number | undefined,
): Promise<TailRead> {
  const started = performance.now();
  const step = spec.stream?.window;
  let range = first;
  let kept: Array<{ item: unknown; key: Record<string, KeyValue> }> = [];
  let earliest = first.since;
  let scanned = 0;
  for (let empty = 0; ; ) {
    const left = { maxItems: bounds.maxItems - scanned, maxMs: bounds.maxMs - (performance.now() - started) };
    const walk = new HandlerWalk(invocation, next, spec, keySpec, range, { tail: n, waitMs });
    const found: Array<{ item: unknown; key: Record<string, KeyValue> }> = [];
    const end = await walk.read(await walk.call(null), left, (item, key) => {
      found.push({ item, key });
      // Only the newest n of a long window are kept (the oldest n of a descending one).
      if (spec.order === "asc" && found.length > 2 * n) found.splice(0, found.length - n);
    });
    if (end.error !== undefined) return { error: end.error };
    scanned += end.scanned;
    if (end.bound !== undefined) {
      if (range === first) return { tooLarge: `${end.bound} within ${describeRange(range)}` };
      break;
    }
    const ascending = spec.order === "asc" ? found.slice(-n) : found.slice(0, n).reverse();
    kept = [...ascending, ...kept].slice(-n);
    earliest = range.since;
    if (kept.length >= n || step === undefined || range.since === null) break;
    empty = found.length === 0 ? empty + 1 : 0;
    if (empty >= MAX_EMPTY_WINDOWS || performance.now() - started >= bounds.maxMs) break;
    range = { since: shift(range.since, -step), until: range.since };
  }
  return {
    rows: { items: kept.map((k) => k.item), keys: kept.map((k) => k.key), hasMore: false },
    window: { since: earliest, until: first.until },
  };
}

function shift(bound: number | Date, by: number): number | Date {
  return bound instanceof Date ? new Date(bound.getTime() + by) : bound + by;
}

function describeRange(range: StreamWindow): string {
  const show = (bound: number | Date | null) =>
    bound === null ? "…" : bound instanceof Date ? bound.toISOString() : String(bound);
  return `(${show(range.since)}, ${show(range.until)}]`;
}
