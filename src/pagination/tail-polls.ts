import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { WalkProgress } from "./adaptive-pages.js";
import type { KeyValue } from "./cursor-values.js";

/** Tails remembered by default: one entry (about 150 bytes) per caller and stream it polls. */
const DEFAULT_CAPACITY = 16_384;

/**
 * Beyond two, a walk's page count changes nothing (`adaptiveLimit` reads 0, 1 or more), so
 * a resumed walk counts at most two pages before: the cursors of a tail that has been polled
 * a million times stay as short as those of its third page.
 */
const MAX_RESUMED_PAGES = 2;

/**
 * The tail a caller follows: one operation, one input besides the range (`since`,
 * `until`, `cursor`, `limit`, `fields` left out), one owner. Made by `tailOf`.
 */
export type TailKey = string;

/**
 * Where each tail this server answered ended (the `nextSince` it handed out), with how far
 * its walk had come, so a call that polls on from there (`since = nextSince`, no cursor)
 * goes on with that walk: it counts as a continuation, like a call with a cursor, and an
 * adaptive walk keeps growing instead of starting again at `limit` (issue 23: tail polls
 * were invisible to both). A `since` the caller was not handed (another time, another
 * caller's position, one forgotten) starts a walk, as before.
 *
 * Memory is bounded: one entry per tail, the least recently answered forgotten past
 * `capacity`, keyed by a digest, never by the caller's text. On several instances a poll
 * that reaches another instance starts a walk: a statistic and a page size, never a
 * decision about which items are returned.
 *
 * @example
 * ```ts
 * const tails = new TailPolls();
 * const tail = tailOf("session:a", "logs", '{"host":"web-1"}');
 * tails.handedOut(tail, new Date("2026-01-01T10:05:00Z"), { pagesBefore: 3, lastCount: 40 });
 * tails.resumed(tail, new Date("2026-01-01T10:05:00Z")); // { pagesBefore: 2, lastCount: 40 }
 * ```
 */
export class TailPolls {
  private readonly tails: LRUCache<TailKey, { readonly at: number; readonly progress: WalkProgress }>;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.tails = new LRUCache({ max: capacity });
  }

  /** Remembers that an answer of this tail ended its window at `nextSince`, where its walk stood. */
  handedOut(tail: TailKey, nextSince: KeyValue, progress: WalkProgress): void {
    const at = instantOf(nextSince);
    if (at === undefined) return;
    const pagesBefore = Math.min(progress.pagesBefore, MAX_RESUMED_PAGES);
    this.tails.set(tail, { at, progress: { pagesBefore, lastCount: progress.lastCount } });
  }

  /** The walk a poll from `since` goes on with, when it is where this tail's last answer ended. */
  resumed(tail: TailKey, since: number | Date): WalkProgress | undefined {
    const found = this.tails.get(tail);
    return found !== undefined && found.at === instantOf(since) ? found.progress : undefined;
  }
}

/** The key of the tail an owner follows on an operation with an input (its canonical JSON, without the range). */
export function tailOf(owner: string, operation: string, canonicalInput: string): TailKey {
  return createHash("sha256")
    .update(`${owner.length}:${owner}${operation.length}:${operation}${canonicalInput}`)
    .digest("base64url");
}

/** A range bound or a key value as milliseconds (or a sequence number); undefined when it is neither. */
function instantOf(value: KeyValue | number | Date): number | undefined {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string") {
    const time = Date.parse(value);
    return Number.isNaN(time) ? undefined : time;
  }
  return undefined;
}
