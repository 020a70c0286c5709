import type { PatternOptions, SearchMatcher } from "./search-matcher.js";

/** How to search: the pattern, where to start, how many matches, and how much text around each. */
export interface SearchOptions extends PatternOptions {
  /** Position (item or line) to start from (default 0); on a JSON value that is not an array, matches to skip. */
  offset?: number | undefined;
  /** Most matches to return. */
  limit: number;
  /** Characters of text kept each side of a match (default `DEFAULT_CONTEXT`). */
  context?: number | undefined;
  /** Whole items (JSON arrays) or lines (text) instead of windows around each match. */
  whole?: boolean | undefined;
  /** Bytes scanned at most by this call (default `SEARCH_SCAN_BYTES`; always at least one entry). */
  maxScanBytes?: number;
  /** Milliseconds spent scanning at most by this call (default `SEARCH_SCAN_MS`; always at least one entry). */
  maxScanMs?: number;
}

/** Characters each side of a match that a search answers by default. */
export const DEFAULT_CONTEXT = 80;

/**
 * One match: the item (`index`, JSON arrays) or line (`index`, text), the JSON Pointer of
 * the string that holds it (`path`), where it starts in that string (`offset`, in
 * characters) and the text around it; or, under `whole`, the whole item or line.
 */
export interface SearchMatch {
  index?: number;
  path?: string;
  offset?: number;
  text?: string;
  item?: unknown;
}

/** A match as the search found it: what it answers, the entry it is in, and where the match starts in its `text`. */
export interface FoundMatch {
  readonly match: SearchMatch;
  /** The item or line (or, in a JSON value, the match's own number): cuts happen between entries. */
  readonly entry: number;
  /** Characters of `match.text` before the match: a window narrowed to the budget keeps the match. */
  readonly lead: number;
}

/** Matches in a resource, with where to go on (the URI and pattern asked are not repeated: the caller has them). */
export interface SearchResult {
  version: number;
  matches: SearchMatch[];
  count: number;
  /** Items or lines in the whole resource (1 for a JSON value that is not an array). */
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

/** What a search found, before the budget: the answer and its matches with where they sit. */
export interface SearchFound {
  readonly result: SearchResult;
  readonly found: readonly FoundMatch[];
}

/** Says that an item or line held more matches than one answer takes. */
export function crowdedHint(position: number, unit: string, limit: number): string {
  return `${unit} ${position} holds more matches than ${limit}: the first ones are here; narrow the pattern, raise limit, or read it with read_resource.`;
}

/** Windows of `context` characters each side of each occurrence in `value` (a long match is cut). */
export function windows(
  matcher: SearchMatcher,
  value: string,
  max: number,
  context: number,
  entry: number,
  where: Pick<SearchMatch, "index" | "path">,
): FoundMatch[] {
  return matcher.find(value, max).map(({ offset, length }) => {
    const from = Math.max(0, offset - context);
    const to = Math.min(value.length, offset + Math.min(length, MAX_MATCH_CHARS) + context);
    return { match: { ...where, offset, text: value.slice(from, to) }, entry, lead: offset - from };
  });
}

/** Characters of one match kept in its window at most: a match of `.*` does not carry its whole field. */
const MAX_MATCH_CHARS = 1000;
