import type { StoredResourceMeta } from "../storage/storage.js";
import { type StoredContent, textPieces } from "./entry-reader.js";
import { stringFields } from "./json-pointer.js";
import { JsonScanner, type ScannedKind, type ScanVisitor } from "./json-scanner.js";
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
  if (options.whole) {
    if (meta.size > WHOLE_VALUE_BYTES)
      throw new PatternError(
        `this JSON value (${meta.size} bytes) is too large to answer whole; search without whole for windows of text`,
      );
    const found: FoundMatch[] = [];
    const text = Buffer.from(await storage.read(meta.id, meta.version, "content", 0, meta.size)).toString();
    const value: unknown = JSON.parse(text);
    const hits = [...stringFields(value)].some((field) => matcher.test(field.value));
    if (hits && skip === 0) found.push({ match: { item: value }, entry: 0, lead: 0 });
    return jsonValueAnswer(meta, found, false, skip);
  }
  const matches = new StringMatches(matcher, skip, options.limit, options.context ?? DEFAULT_CONTEXT);
  const scanner = new JsonScanner(matches);
  for await (const piece of textPieces(storage, meta, 0, meta.size)) {
    scanner.feed(piece);
    if (scanner.finished) break;
  }
  scanner.finish();
  return jsonValueAnswer(meta, matches.found, matches.more, skip);
}

/** A JSON value's search answer; `offset` counts matches, so the next one is after those found. */
function jsonValueAnswer(
  meta: StoredResourceMeta,
  found: FoundMatch[],
  more: boolean,
  skip: number,
): SearchFound {
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

const NO_PATH = () => "";

/**
 * Reads each string of a JSON value as the scanner meets it and collects the windows of its
 * matches, numbered across the value from the `skip`th on. Finding one more than `limit`
 * ends the scan: the answer then says there is more.
 */
class StringMatches implements ScanVisitor {
  readonly found: FoundMatch[] = [];
  more = false;
  private seen = 0;
  private parts: string[] = [];
  private path: () => string = NO_PATH;

  constructor(
    private readonly matcher: SearchMatcher,
    private readonly skip: number,
    private readonly limit: number,
    private readonly context: number,
  ) {}

  value(kind: ScannedKind, pointer: () => string): "read" | undefined {
    if (kind !== "string") return undefined;
    this.path = pointer;
    this.parts = [];
    return "read";
  }

  piece(text: string): void {
    this.parts.push(text);
  }

  end(): boolean {
    const value = this.parts.join("");
    this.parts = [];
    const { skip, limit } = this;
    const wanted = skip + limit + 1 - this.seen;
    for (const hit of windows(this.matcher, value, wanted, this.context, 0, { path: this.path() })) {
      if (this.seen >= skip + limit) {
        this.more = true;
        return true;
      }
      if (this.seen >= skip) this.found.push({ ...hit, entry: this.seen });
      this.seen++;
    }
    return false;
  }
}

/** Bytes of a JSON value that a search under `whole` answers whole at most. */
const WHOLE_VALUE_BYTES = 4 * 1024 * 1024;
