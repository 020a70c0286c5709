import type { StoredResourceMeta } from "../storage/storage.js";
import { type StoredContent, textPieces } from "./entry-reader.js";
import { stringFields } from "./json-pointer.js";
import { JsonScanner } from "./json-scanner.js";
import {
  DEFAULT_CONTEXT,
  type FoundMatch,
  type SearchFound,
  type SearchOptions,
  windows,
} from "./search-match.js";
import { PatternError, type SearchMatcher } from "./search-matcher.js";

/**
 * Searches a JSON value that is not an array: one item, scanned as it is read; matches
 * answer `path` and no `index`; `offset` skips that many matches.
 */
export async function searchJsonValue(
  storage: StoredContent,
  meta: StoredResourceMeta,
  matcher: SearchMatcher,
  options: SearchOptions,
): Promise<SearchFound> {
  const skip = options.offset ?? 0;
  const context = options.context ?? DEFAULT_CONTEXT;
  const found: FoundMatch[] = [];
  let seen = 0;
  let more = false;
  if (options.whole) {
    if (meta.size > WHOLE_VALUE_BYTES)
      throw new PatternError(
        `this JSON value (${meta.size} bytes) is too large to answer whole; search without whole for windows of text`,
      );
    const text = Buffer.from(await storage.read(meta.id, meta.version, "content", 0, meta.size)).toString();
    const value: unknown = JSON.parse(text);
    const hits = [...stringFields(value)].some((field) => matcher.test(field.value));
    if (hits && skip === 0) found.push({ match: { item: value }, entry: 0, lead: 0 });
  } else {
    let parts: string[] = [];
    let path = () => "";
    const scanner = new JsonScanner({
      value(kind, pointer) {
        if (kind !== "string") return undefined;
        path = pointer;
        parts = [];
        return "read";
      },
      piece: (text) => parts.push(text),
      end() {
        const value = parts.join("");
        parts = [];
        const wanted = skip + options.limit + 1 - seen;
        for (const hit of windows(matcher, value, wanted, context, 0, { path: path() })) {
          if (seen >= skip + options.limit) {
            more = true;
            return true;
          }
          if (seen >= skip) found.push({ ...hit, entry: seen });
          seen++;
        }
        return false;
      },
    });
    for await (const piece of textPieces(storage, meta, 0, meta.size)) {
      scanner.feed(piece);
      if (scanner.finished) break;
    }
    scanner.finish();
  }
  const nextOffset = more ? skip + found.length : null;
  return {
    found,
    result: {
      version: meta.version,
      matches: found.map((f) => f.match),
      count: found.length,
      total: 1,
      scanned: 1,
      nextOffset,
      hasMore: more,
    },
  };
}

/** Bytes of a JSON value that a search under `whole` answers whole at most. */
const WHOLE_VALUE_BYTES = 4 * 1024 * 1024;
