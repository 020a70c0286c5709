import type { StoredResourceMeta } from "../storage/storage.js";
import { type Entry, type StoredContent, walkEntries } from "./entry-reader.js";
import { stringFields } from "./json-pointer.js";
import { JsonScanError } from "./json-scanner.js";
import { type ScanBounds, scanEntries } from "./query-scan.js";
import { searchJsonValue } from "./search-json-value.js";
import {
  crowdedHint,
  DEFAULT_CONTEXT,
  type FoundMatch,
  type SearchFound,
  type SearchOptions,
  windows,
} from "./search-match.js";
import { PatternError, type PatternOptions, type SearchMatcher, searchMatcher } from "./search-matcher.js";
import { isJsonValue } from "./text-window.js";

export type { FoundMatch, SearchFound, SearchMatch, SearchOptions, SearchResult } from "./search-match.js";
export { loadRe2, PatternError } from "./search-matcher.js";

/**
 * Bytes of items or lines one search call scans at most (8 MiB) before answering with
 * where to continue: the work of one call stays bounded whatever the resource's size.
 */
export const SEARCH_SCAN_BYTES = 8 * 1024 * 1024;
/** Milliseconds of scanning one search call spends at most (slow regular expressions on slow hosts). */
export const SEARCH_SCAN_MS = 1000;
/** Longest run of matching before the search lets other calls (other sessions) run. */
const SLICE_MS = 10;

/**
 * Searches a resource, streaming through it in bounded chunks, and answers each match as a
 * window of text around it in the string that holds it (see `SearchMatch`). An item of a
 * JSON array is parsed only when its JSON text could hold a match; a JSON value that is
 * not an array is scanned as it is read (`JsonScanner`), one string at a time. Regular
 * expressions run on RE2 (linear time); lookarounds and backreferences are refused.
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
): Promise<SearchFound> {
  refuseBytes(meta);
  const matcher = await searchMatcher(options);
  if (isJsonValue(meta)) {
    try {
      return await searchJsonValue(storage, meta, matcher, options);
    } catch (error) {
      // Text under a JSON MIME type that is not JSON after all: searched by line.
      if (!(error instanceof JsonScanError)) throw error;
    }
  }
  const from = options.offset ?? 0;
  const maxBytes = options.maxScanBytes ?? SEARCH_SCAN_BYTES;
  const maxMs = options.maxScanMs ?? SEARCH_SCAN_MS;
  const found: FoundMatch[] = [];
  let nextOffset: number | null = null;
  // Why this call stopped short of the limit or the end, for the model (none when it did not).
  let hint: string | undefined;
  let bytes = 0;
  const started = performance.now();
  let slice = started;
  for await (const entry of walkEntries(storage, meta, from)) {
    const now = performance.now();
    if (entry.position > from && (bytes >= maxBytes || now - started >= maxMs)) {
      nextOffset = entry.position;
      hint = scanBoundHint(meta, from, entry.position);
      break;
    }
    if (now - slice >= SLICE_MS) {
      await yieldToEventLoop();
      slice = performance.now();
    }
    bytes += entry.text.length + 1;
    if (found.length === options.limit) {
      if (!matcher.test(entry.text)) continue;
      nextOffset = entry.position;
      break;
    }
    const room = options.limit - found.length;
    const matches = entryMatches(entry, meta.kind === "json-array", matcher, options, room + 1);
    if (matches.length <= room) {
      found.push(...matches);
      continue;
    }
    // More matches than room: stop before this entry, unless it is the first (then keep what fits).
    if (found.length > 0) {
      nextOffset = entry.position;
      break;
    }
    found.push(...matches.slice(0, room));
    hint = crowdedHint(entry.position, meta.kind === "json-array" ? "item" : "line", options.limit);
    nextOffset = entry.position + 1 < meta.total ? entry.position + 1 : null;
    break;
  }
  return searchAnswer(meta, found, from, nextOffset, hint);
}

/** The hint of a call that reached its scan bound (bytes or time) at `end`. */
function scanBoundHint(meta: StoredResourceMeta, from: number, end: number): string {
  const unit = meta.kind === "json-array" ? "items" : "lines";
  return `Searched ${unit} ${from} to ${end - 1} of ${meta.total}: one call searches a bounded part of a large resource; search again with offset ${end} for the rest.`;
}

/** What a search call answers: its matches, how far it got, and where to go on. */
function searchAnswer(
  meta: StoredResourceMeta,
  found: FoundMatch[],
  from: number,
  nextOffset: number | null,
  hint: string | undefined,
): SearchFound {
  const end = nextOffset ?? meta.total;
  return {
    found,
    result: {
      version: meta.version,
      matches: found.map((f) => f.match),
      count: found.length,
      total: meta.total,
      scanned: Math.max(0, end - from),
      nextOffset,
      hasMore: nextOffset !== null,
      ...(hint === undefined ? {} : { hint }),
    },
  };
}

/** The matches of one item or line: windows in its strings, or (under `whole`) the entry itself. */
function entryMatches(
  entry: Entry,
  isArray: boolean,
  matcher: SearchMatcher,
  options: SearchOptions,
  max: number,
): FoundMatch[] {
  const index = entry.position;
  const context = options.context ?? DEFAULT_CONTEXT;
  if (options.whole || !isArray) {
    // Testing first keeps RE2 on its fast path for the many lines that do not match.
    if (!matcher.test(entry.text)) return [];
    if (!options.whole) return windows(matcher, entry.text, max, context, index, { index });
    const match = isArray ? { index, item: JSON.parse(entry.text) } : { index, text: entry.text };
    return [{ match, entry: index, lead: 0 }];
  }
  // An item matches when its JSON text does (as counts and the contract say): only those are parsed.
  if (!matcher.test(entry.text)) return [];
  const found: FoundMatch[] = [];
  for (const field of stringFields(JSON.parse(entry.text))) {
    found.push(
      ...windows(matcher, field.value, max - found.length, context, index, { index, path: field.path }),
    );
    if (found.length >= max) return found;
  }
  // Matched only outside the strings (a key, a number): windows of the item's JSON text.
  if (found.length === 0) return windows(matcher, entry.text, max, context, index, { index });
  return found;
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
  options: PatternOptions & { offset?: number | undefined },
  bounds: ScanBounds,
): Promise<SearchCount> {
  refuseBytes(meta);
  const { test } = await searchMatcher(options);
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

/** Search and count read text: bytes are refused, pointing at the reads that fit them. */
function refuseBytes(meta: StoredResourceMeta): void {
  if (meta.kind === "bytes")
    throw new PatternError("binary content cannot be searched; read it with byte slices");
}

/** Lets timers and other sessions' requests run before going on. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
