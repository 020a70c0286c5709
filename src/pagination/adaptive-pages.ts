import { CursorError } from "./cursor-codec.js";
import type { KeyValue } from "./cursor-values.js";

/**
 * Where an adaptive walk (`@Paginated(key, { adaptive: true })`) stands when its next
 * page is asked for. The cursor carries it, signed like the rest of the cursor, so a
 * client can neither forge a large page count nor lose it by reconnecting.
 */
export interface WalkProgress {
  /** Pages this walk already returned: 0 on the first page, 1 on the page after it, … */
  readonly pagesBefore: number;
  /** Items the page before really returned (after the budget shrank it, if it did). */
  readonly lastCount: number;
}

/** The progress of a walk's first page. */
export const FIRST_PAGE: WalkProgress = Object.freeze({ pagesBefore: 0, lastCount: 0 });

/**
 * The size of a page the client asked for without `limit`, under `adaptive: true`.
 *
 * - The first page and the second have `limit` items (the second at least as many as the
 *   first really returned, so a first page the client sized itself sets the pace): a
 *   model that peeks at one or two pages reads what fixed pages would show it.
 * - From the third page on, twice what the page before really returned. Growing from
 *   what was returned rather than from what was asked keeps a walk held down by the
 *   token budget (which shrinks pages to fit) from asking the handler for rows that
 *   would only be cut again.
 * - Never below `limit` (a page shrunk by the budget, or a small first page the client
 *   asked for, does not make the walk slower than fixed pages) nor above `maxLimit`.
 *
 * @example
 * ```ts
 * adaptiveLimit({ pagesBefore: 0, lastCount: 0 }, 20, 100); // 20
 * adaptiveLimit({ pagesBefore: 1, lastCount: 20 }, 20, 100); // 20
 * adaptiveLimit({ pagesBefore: 2, lastCount: 20 }, 20, 100); // 40
 * adaptiveLimit({ pagesBefore: 4, lastCount: 80 }, 20, 100); // 100
 * ```
 */
export function adaptiveLimit(progress: WalkProgress, limit: number, maxLimit: number): number {
  if (progress.pagesBefore === 0) return limit;
  const grown = progress.pagesBefore === 1 ? progress.lastCount : progress.lastCount * 2;
  return Math.min(maxLimit, Math.max(limit, grown));
}

/**
 * The cursor state that records a walk's progress. Values that a cursor without them
 * would decode to are left out (`p` of 1, `r` equal to `limit`), so the first page's
 * cursor, the one a one-page look hands out, is exactly as long as a fixed page's, and a
 * cursor issued before `adaptive` was turned on reads as the second page of a walk.
 */
export function progressState(progress: WalkProgress, limit: number): Record<string, number> {
  const state: Record<string, number> = {};
  if (progress.pagesBefore !== 1) state.p = progress.pagesBefore;
  if (progress.lastCount !== limit) state.r = progress.lastCount;
  return state;
}

/** Reads the progress `progressState` recorded; a value no server would have issued is refused. */
export function readProgress(state: Readonly<Record<string, KeyValue>>, limit: number): WalkProgress {
  // `in`, not `??`: a null that a forged payload could hold must be refused, not read as absent.
  const pagesBefore = "p" in state ? state.p : 1;
  const lastCount = "r" in state ? state.r : limit;
  if (!isCount(pagesBefore, 1) || !isCount(lastCount, 0)) {
    throw new CursorError("the cursor's page count is malformed");
  }
  return { pagesBefore, lastCount };
}

function isCount(value: KeyValue | undefined, min: number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= min;
}
