import type { RE2 } from "re2-wasm";
import { requirePackage } from "../common/require-package.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { type StoredContent, walkEntries } from "./entry-reader.js";
import { type ScanBounds, scanEntries } from "./query-scan.js";

/**
 * Bytes of items or lines one search call scans at most (8 MiB) before answering with
 * where to continue: the work of one call stays bounded whatever the resource's size.
 */
export const SEARCH_SCAN_BYTES = 8 * 1024 * 1024;
/** Milliseconds of scanning one search call spends at most (slow regular expressions on slow hosts). */
export const SEARCH_SCAN_MS = 1000;
/** Longest run of matching before the search lets other calls (other sessions) run. */
const SLICE_MS = 10;

/** How to search: literal text by default; `regex` uses RE2, which runs in linear time. */
export interface SearchOptions {
  pattern: string;
  regex?: boolean;
  ignoreCase?: boolean;
  /** Position (item or line) to start from (default 0). */
  offset?: number;
  /** Most matches to return. */
  limit: number;
  /** Bytes scanned at most by this call (default `SEARCH_SCAN_BYTES`; always at least one entry). */
  maxScanBytes?: number;
  /** Milliseconds spent scanning at most by this call (default `SEARCH_SCAN_MS`; always at least one entry). */
  maxScanMs?: number;
}

/** One match: its position, and the item (JSON arrays) or line (text). */
export interface SearchMatch {
  position: number;
  item?: unknown;
  line?: string;
}

/** Matches in a resource, self-describing like a slice. */
export interface SearchResult {
  uri: string;
  version: number;
  pattern: string;
  matches: SearchMatch[];
  count: number;
  /** Items or lines in the whole resource. */
  total: number;
  /**
   * Items or lines this answer covers, from the offset searched from: every match in
   * `[offset, offset + scanned)` is in `matches`; the next search starts at `nextOffset`.
   */
  scanned: number;
  /** Where to continue searching, or null when the whole resource was searched. */
  nextOffset: number | null;
  hasMore: boolean;
  /** Set when this call stopped at its scan limit, not at `limit` matches: says how to go on. */
  hint?: string;
}

/** A pattern the search cannot use; the message says why. */
export class PatternError extends Error {}

/**
 * Searches each item's JSON text or each line, streaming through the resource in
 * bounded chunks. Regular expressions run on RE2 (linear time, no catastrophic
 * backtracking on hostile patterns); lookarounds and backreferences are refused.
 *
 * One call scans at most `maxScanBytes` (or `maxScanMs` of matching), then answers with
 * `nextOffset`, so a search of a huge resource is a walk of bounded calls; and it lets
 * the event loop run every few milliseconds, so other sessions' calls are never held up
 * by it. (A single line or item is matched in one go: its size bounds that step.)
 */
export async function searchResource(
  storage: StoredContent,
  meta: StoredResourceMeta,
  options: SearchOptions,
): Promise<SearchResult> {
  if (meta.kind === "bytes")
    throw new PatternError("binary content cannot be searched; read it with byte slices");
  const test = await matcher(options);
  const from = options.offset ?? 0;
  const maxBytes = options.maxScanBytes ?? SEARCH_SCAN_BYTES;
  const maxMs = options.maxScanMs ?? SEARCH_SCAN_MS;
  const matches: SearchMatch[] = [];
  let nextOffset: number | null = null;
  let scanLimited = false;
  let bytes = 0;
  const started = performance.now();
  let slice = started;
  for await (const entry of walkEntries(storage, meta, from)) {
    const now = performance.now();
    if (entry.position > from && (bytes >= maxBytes || now - started >= maxMs)) {
      nextOffset = entry.position;
      scanLimited = true;
      break;
    }
    if (now - slice >= SLICE_MS) {
      await yieldToEventLoop();
      slice = performance.now();
    }
    bytes += entry.text.length + 1;
    if (!test(entry.text)) continue;
    if (matches.length === options.limit) {
      nextOffset = entry.position;
      break;
    }
    matches.push(
      meta.kind === "json-array"
        ? { position: entry.position, item: JSON.parse(entry.text) }
        : { position: entry.position, line: entry.text },
    );
  }
  const end = nextOffset ?? meta.total;
  const unit = meta.kind === "json-array" ? "items" : "lines";
  return {
    uri: meta.uri,
    version: meta.version,
    pattern: options.pattern,
    matches,
    count: matches.length,
    total: meta.total,
    scanned: Math.max(0, end - from),
    nextOffset,
    hasMore: nextOffset !== null,
    ...(scanLimited
      ? {
          hint: `Searched ${unit} ${from} to ${end - 1} of ${meta.total}: one call searches a bounded part of a large resource; search again with offset ${end} for the rest.`,
        }
      : {}),
  };
}

/** What `search_resource` with `count: true` answers: the number of matches, and how far it got when bounded. */
export interface SearchCount {
  count: number;
  partial?: true;
  /** When partial: items or lines counted from the offset, where to go on, and how. */
  scanned?: number;
  nextOffset?: number;
  hint?: string;
}

/**
 * Counts the items or lines that match from `offset` to the end of the resource, streamed
 * and bounded like an aggregate scan (`bounds`): past a bound the count is partial and
 * says where to go on.
 */
export async function countSearch(
  storage: StoredContent,
  meta: StoredResourceMeta,
  options: Omit<SearchOptions, "limit">,
  bounds: ScanBounds,
): Promise<SearchCount> {
  if (meta.kind === "bytes")
    throw new PatternError("binary content cannot be searched; read it with byte slices");
  const test = await matcher({ ...options, limit: 0 });
  const from = options.offset ?? 0;
  let count = 0;
  const end = await scanEntries(storage, meta, from, bounds, (text) => {
    if (test(text)) count++;
    return true;
  });
  if (end.bound === undefined || end.next === null) return { count };
  const unit = meta.kind === "json-array" ? "items" : "lines";
  return {
    count,
    partial: true,
    scanned: end.scanned,
    nextOffset: end.next,
    hint: `Counted ${unit} ${from} to ${end.next - 1} of ${meta.total}: the count stopped ${end.bound}. Count again with offset ${end.next} and add the counts.`,
  };
}

/** Lets timers and other sessions' requests run before going on. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

let re2: Promise<typeof RE2> | undefined;

/**
 * RE2, loaded on the first regular-expression search (importing it costs about 20–40 ms of
 * start-up). By `require`, not `import()`: a bundler follows an `import()` and copies re2-wasm
 * into the user's bundle, where it no longer finds its `.wasm` file (it looks beside itself);
 * required, it stays in node_modules, whole.
 */
export function loadRe2(): Promise<typeof RE2> {
  re2 ??= Promise.resolve()
    .then(() => (requirePackage("re2-wasm") as typeof import("re2-wasm")).RE2)
    .catch((error: unknown) => {
      re2 = undefined;
      throw error;
    });
  return re2;
}

async function matcher(options: SearchOptions): Promise<(text: string) => boolean> {
  if (options.pattern.length === 0)
    throw new PatternError("the pattern is empty; give some text to look for");
  if (options.regex) {
    const Re2 = await loadRe2();
    let expression: RE2;
    try {
      expression = new Re2(options.pattern, options.ignoreCase ? "iu" : "u");
    } catch (error) {
      throw new PatternError(`${(error as Error).message} (RE2 syntax: no lookarounds or backreferences)`);
    }
    return (text) => {
      expression.lastIndex = 0;
      return expression.test(text);
    };
  }
  if (options.ignoreCase) {
    const needle = options.pattern.toLowerCase();
    return (text) => text.toLowerCase().includes(needle);
  }
  return (text) => text.includes(options.pattern);
}
