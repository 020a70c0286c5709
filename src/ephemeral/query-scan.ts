import type { StoredResourceMeta } from "../storage/storage.js";
import { type StoredContent, walkEntries } from "./entry-reader.js";

/** How much of a resource one query or count scans at most. */
export interface ScanBounds {
  /** Items read at most (`aggregate.maxScanItems`, default 100,000). */
  readonly maxItems: number;
  /** Milliseconds of scanning at most (`aggregate.maxScanMs`, default 2,000). */
  readonly maxMs: number;
}

/** Defaults of the scan bounds: those of an aggregate scan. */
export const SCAN_DEFAULTS: ScanBounds = Object.freeze({ maxItems: 100_000, maxMs: 2_000 });

/** Where a scan ended. */
export interface ScanEnd {
  /** Items or lines read. */
  readonly scanned: number;
  /** The position to go on from when the scan stopped before the end, else null. */
  readonly next: number | null;
  /** Set when a bound stopped it: which one, worded for a hint. */
  readonly bound?: string;
}

/** Longest run of work before the scan lets other calls (other sessions) run. */
const SLICE_MS = 10;

/**
 * Reads the entries (items of a JSON array, lines of text) from `from` on, streaming them
 * from storage in bounded chunks (never the whole resource in memory), and hands each to
 * `visit`, which returns false to stop there. Bounded by `bounds`, timed on the process's
 * own clock (it protects the server's CPU, whatever the app's clock says), and lets the
 * event loop run every few milliseconds.
 */
export async function scanEntries(
  content: StoredContent,
  meta: StoredResourceMeta,
  from: number,
  bounds: ScanBounds,
  visit: (text: string, position: number) => boolean | undefined,
): Promise<ScanEnd> {
  const started = performance.now();
  let slice = started;
  let scanned = 0;
  for await (const entry of walkEntries(content, meta, from)) {
    if (scanned > 0) {
      const now = performance.now();
      const bound =
        scanned >= bounds.maxItems
          ? `at ${bounds.maxItems} items (aggregate.maxScanItems)`
          : now - started >= bounds.maxMs
            ? `after ${bounds.maxMs} ms (aggregate.maxScanMs)`
            : undefined;
      if (bound !== undefined) return { scanned, next: entry.position, bound };
      if (now - slice >= SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
    }
    scanned++;
    if (visit(entry.text, entry.position) === false) {
      const next = entry.position + 1;
      return { scanned, next: next < meta.total ? next : null };
    }
  }
  return { scanned, next: null };
}
