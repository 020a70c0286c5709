import { RE2 } from "re2-wasm";
import type { StoredResourceMeta } from "../storage/storage.js";
import { type StoredContent, walkEntries } from "./entry-reader.js";

/** How to search: literal text by default; `regex` uses RE2, which runs in linear time. */
export interface SearchOptions {
  pattern: string;
  regex?: boolean;
  ignoreCase?: boolean;
  /** Position (item or line) to start from (default 0). */
  offset?: number;
  /** Most matches to return. */
  limit: number;
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
  /** Where to continue searching, or null when the whole resource was searched. */
  nextOffset: number | null;
  hasMore: boolean;
}

/** A pattern the search cannot use; the message says why. */
export class PatternError extends Error {}

/**
 * Searches each item's JSON text or each line, streaming through the resource in
 * bounded chunks. Regular expressions run on RE2 (linear time, no catastrophic
 * backtracking on hostile patterns); lookarounds and backreferences are refused.
 */
export async function searchResource(
  storage: StoredContent,
  meta: StoredResourceMeta,
  options: SearchOptions,
): Promise<SearchResult> {
  if (meta.kind === "bytes")
    throw new PatternError("binary content cannot be searched; read it with byte slices");
  const test = matcher(options);
  const matches: SearchMatch[] = [];
  let nextOffset: number | null = null;
  for await (const entry of walkEntries(storage, meta, options.offset ?? 0)) {
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
  return {
    uri: meta.uri,
    version: meta.version,
    pattern: options.pattern,
    matches,
    count: matches.length,
    total: meta.total,
    nextOffset,
    hasMore: nextOffset !== null,
  };
}

function matcher(options: SearchOptions): (text: string) => boolean {
  if (options.pattern.length === 0)
    throw new PatternError("the pattern is empty; give some text to look for");
  if (options.regex) {
    let expression: RE2;
    try {
      expression = new RE2(options.pattern, options.ignoreCase ? "iu" : "u");
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
