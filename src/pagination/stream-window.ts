import type { StreamChunkOptions } from "../metadata/definitions.js";
import type { KeyValue } from "./cursor-values.js";

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
 * A time window never ends in the future: `until` is at most `now` (the app's clock), so
 * the chunk's `nextSince` (its `until`) is where it really ended and a client that polls
 * with `since = nextSince` misses nothing. `until` is inclusive: an item stamped exactly
 * `now` belongs to this window, and the next one, which starts after `now`, never repeats
 * it. A `since` at or after `now` (a client polling again within the same millisecond, or
 * a clock that stepped back) gives the empty range `(since, since]`: nothing yet, and
 * `nextSince` stays at `since`.
 */
export function resolveWindow(
  sinceInput: unknown,
  untilInput: unknown,
  stream: StreamChunkOptions,
  now: number,
): StreamWindow {
  let since = parseBound(sinceInput, "since");
  let until = parseBound(untilInput, "until");
  if (since !== null && until !== null && toNumber(until) <= toNumber(since)) {
    throw new BoundError("until must be later than since");
  }
  const window = stream.window;
  if (window === undefined) return { since, until };
  if (until !== null) until = atMost(until, now);
  if (since === null && until === null) until = new Date(now);
  if (since === null) since = shift(until as number | Date, -window);
  if (until === null || toNumber(until) - toNumber(since) > window) until = shift(since, window);
  until = atMost(until, now);
  // Past `now` there is nothing to read yet: the range is empty and ends where it starts.
  if (toNumber(until) < toNumber(since)) until = since;
  return { since, until };
}

/** `bound`, or `now` (as the same kind of value) when `bound` is later. */
function atMost(bound: number | Date, now: number): number | Date {
  if (toNumber(bound) <= now) return bound;
  return bound instanceof Date ? new Date(now) : now;
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
