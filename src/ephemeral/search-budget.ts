import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { crowdedHint, type FoundMatch, type SearchFound, type SearchResult } from "./search-match.js";

/** A search answer whose first match, whole, is over the budget: skipped, with how to go on. */
type SkippedSearch = SearchResult & { skipped: { index?: number; budget: number; reason: string } };

/**
 * Holds a search answer to the budget: the most matches that fit, cut between items or
 * lines (the next search starts at the first one left out, so none is lost); a window
 * alone over the budget is narrowed around its match until it fits, never skipped. Only
 * a whole item alone over the budget is skipped, and the answer says so and how to read it.
 */
export async function fitSearch(
  searched: SearchFound,
  from: number,
  budget: number,
  counter: TokenCounter,
): Promise<SearchResult | SkippedSearch> {
  const { result, found } = searched;
  const unit = result.total === 1 && found[0]?.match.index === undefined ? "value" : "entry";
  const fitted = await fitPrefix(
    found.length,
    (n) => JSON.stringify(firstMatches(searched, from, unit, n)),
    budget,
    counter,
  );
  const first = found[0];
  if (fitted.n > 0 || !first) return firstMatches(searched, from, unit, fitted.n);
  const { text } = first.match;
  if (text !== undefined) {
    // One window alone is over the budget: narrow it around its match until it fits.
    const narrowed = (chars: number): SearchResult => {
      const start = Math.max(0, first.lead - Math.floor(chars / 4));
      return {
        ...firstMatches(searched, from, unit, 1),
        matches: [{ ...first.match, text: text.slice(start, start + chars) }],
      };
    };
    const fits = await fitPrefix(text.length, (chars) => JSON.stringify(narrowed(chars)), budget, counter);
    if (fits.n > 0) return narrowed(fits.n);
  }
  return skippedFirst(searched, from, unit, first, budget);
}

/** What a search answers in: entries (items or lines), or the matches of one JSON value. */
type SearchUnit = "value" | "entry";

/**
 * The answer cut to its first `n` matches, going on after the last entry kept. A cut
 * inside an entry leaves it whole to the next search, unless it is the first one.
 */
function firstMatches(searched: SearchFound, from: number, unit: SearchUnit, n: number): SearchResult {
  const { result, found } = searched;
  if (n >= found.length) return result;
  let kept = n;
  const last = found[n - 1]?.entry;
  let next = last === undefined ? from : last + 1;
  let hint: string | undefined;
  if (last !== undefined && found[n]?.entry === last) {
    const firstOfLast = found.findIndex((f) => f.entry === last);
    if (firstOfLast > 0) {
      kept = firstOfLast;
      next = last;
    } else if (unit === "entry") hint = crowdedHint(last, "entry", n);
  }
  const { hint: _scanHint, ...rest } = result;
  const more = next < result.total || unit === "value";
  return {
    ...rest,
    matches: found.slice(0, kept).map((f) => f.match),
    count: kept,
    scanned: unit === "value" ? 1 : next - from,
    nextOffset: more ? next : null,
    hasMore: more,
    ...(hint === undefined ? {} : { hint }),
  };
}

/**
 * The answer when its first match alone is over the budget (a whole item, or a budget too
 * small for any text): it is skipped, and the answer says how to go on. It goes on after
 * its entry (in a JSON value, after this match: offsets count matches there).
 */
function skippedFirst(
  searched: SearchFound,
  from: number,
  unit: SearchUnit,
  first: FoundMatch,
  budget: number,
): SkippedSearch {
  const next = first.entry + 1;
  const more = unit === "value" || next < searched.result.total;
  return {
    ...firstMatches(searched, from, unit, 0),
    scanned: unit === "value" ? 1 : next - from,
    nextOffset: more ? next : null,
    hasMore: more,
    skipped: {
      ...(first.match.index === undefined ? {} : { index: first.match.index }),
      budget,
      reason:
        first.match.text === undefined
          ? "this match alone is over the token budget; search without whole for windows of text around it"
          : "the token budget is too small for any text of this match",
    },
  };
}
