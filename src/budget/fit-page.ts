import type { Page } from "../pagination/page.js";
import { jsonReplacer } from "../results/shape-tool-result.js";
import type { TokenCounter } from "./token-counter.js";

/** The outcome of fitting a page into a budget. */
export type FittedPage =
  | { kind: "fits"; page: Page; tokens: number }
  /** Even the first item alone is over the budget. */
  | { kind: "firstItemTooLarge"; tokens: number };

/**
 * The largest prefix of `page` whose JSON text fits `budget`, found by binary search:
 * O(log n) probes, each stopping as soon as it passes the budget, instead of
 * re-encoding the page one item at a time.
 */
export async function fitPage(page: Page, budget: number, counter: TokenCounter): Promise<FittedPage> {
  const tokensOf = async (candidate: Page) =>
    (await counter.count(JSON.stringify(candidate, jsonReplacer), budget)).tokens;
  const whole = await tokensOf(page);
  if (whole <= budget) return { kind: "fits", page, tokens: whole };
  let fits = 0;
  let fitsTokens = -1;
  let over = page.count;
  while (over - fits > 1) {
    const middle = (fits + over) >>> 1;
    const tokens = await tokensOf(page.prefix(middle));
    if (tokens <= budget) {
      fits = middle;
      fitsTokens = tokens;
    } else {
      over = middle;
    }
  }
  if (fits === 0) return { kind: "firstItemTooLarge", tokens: await tokensOf(page.prefix(1)) };
  return { kind: "fits", page: page.prefix(fits), tokens: fitsTokens };
}
