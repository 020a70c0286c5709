import type { KeyValue } from "./cursor-values.js";
import type { StreamChunkSpec } from "./pagination-spec.js";

/** The range of the first key field a stream walk covers: `(since, until]`; null is open. */
export interface StreamWindow {
  readonly since: number | Date | null;
  readonly until: number | Date | null;
}

/** A bad `since`/`until` value; its message says what is expected. */
export class BoundError extends Error {}

/** `"2026-01-01T00:00:00Z"` → Date, `"42"` or `42` → 42; anything else is a `BoundError`. */
export function parseBound(value: unknown, name: string): number | Date | null {
  if (value === undefined || value === null || value === "") return null;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string") {
    if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
    const time = Date.parse(value);
    if (!Number.isNaN(time)) return new Date(time);
  }
  throw new BoundError(
    `${name} must be an ISO 8601 time, epoch milliseconds or a sequence number, not ${JSON.stringify(value)}`,
  );
}

/**
 * Resolves the walk's range. With a `window`, the range is at most that long: `since`
 * alone reaches `window` forward, `until` alone `window` back, neither means the latest
 * window, and a longer range is shortened to the window (the chunk reports the real one).
 *
 * A time window never reaches the millisecond its read starts in: `until` is at most
 * `now - stream.settleMs` (the app's clock; 1 ms by default), the settled end. A writer may
 * still stamp items `now` after the handler took its snapshot (issue 23: a line every 3 ms
 * lost 4-5 % of lines when windows ended at `now`); every item stamped at or before the
 * settled end was written before the read began, so the snapshot holds it, and the chunk's
 * `nextSince` (its `until`) is where the walk is complete: a client that polls with
 * `since = nextSince` sees every item once. `until` is inclusive: an item stamped exactly
 * `until` belongs to this window, and the next one, which starts after it, never repeats
 * it. A `since` at or after the settled end (a client polling again within the same
 * millisecond, or a clock that stepped back) gives the empty range `(since, since]`:
 * nothing yet, and `nextSince` stays at `since`.
 */
export function resolveWindow(
  sinceInput: unknown,
  untilInput: unknown,
  stream: Pick<StreamChunkSpec, "window" | "settleMs">,
  now: number,
): StreamWindow {
  let since = parseBound(sinceInput, "since");
  let until = parseBound(untilInput, "until");
  if (since !== null && until !== null && toNumber(until) <= toNumber(since)) {
    throw new BoundError("until must be later than since");
  }
  const window = stream.window;
  if (window === undefined) return { since, until };
  const settled = now - stream.settleMs;
  if (until !== null) until = atMost(until, settled);
  if (since === null) {
    until ??= new Date(settled);
    since = shift(until, -window);
  }
  if (until === null || toNumber(until) - toNumber(since) > window) until = shift(since, window);
  until = atMost(until, settled);
  // Past the settled end there is nothing to read yet: the range is empty and ends where it starts.
  if (toNumber(until) < toNumber(since)) until = since;
  return { since, until };
}

/** `bound`, or `end` (as the same kind of value) when `bound` is later. */
function atMost(bound: number | Date, end: number): number | Date {
  if (toNumber(bound) <= end) return bound;
  return bound instanceof Date ? new Date(end) : end;
}

/** Where a key value falls relative to the range, in walk order. */
export function placeInWindow(
  value: KeyValue,
  window: StreamWindow,
  order: "asc" | "desc",
): "before" | "inside" | "past" {
  const below = window.since !== null && compareToBound(value, window.since) <= 0;
  const above = window.until !== null && compareToBound(value, window.until) > 0;
  if (!below && !above) return "inside";
  if (order === "asc") return below ? "before" : "past";
  return above ? "before" : "past";
}

function compareToBound(value: KeyValue, bound: number | Date): number {
  if (value === null || typeof value === "boolean") return -1;
  if (typeof value === "string") {
    const time = Date.parse(value);
    return Number.isNaN(time) ? -1 : Math.sign(time - toNumber(bound));
  }
  const number = typeof value === "bigint" ? Number(value) : value instanceof Date ? value.getTime() : value;
  return Math.sign(number - toNumber(bound));
}

function toNumber(bound: number | Date): number {
  return bound instanceof Date ? bound.getTime() : bound;
}

function shift(bound: number | Date, by: number): number | Date {
  return bound instanceof Date ? new Date(bound.getTime() + by) : bound + by;
}
