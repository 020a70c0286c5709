import type { ResultPage } from "../pipeline/outcomes.js";
import { renderPage } from "../pipeline/page-text.js";
import type { TextRendering } from "../results/items-text.js";
import { countUpTo } from "./count-result.js";

/** The outcome of fitting a page into a budget. */
export type FittedPage =
  | { kind: "fits"; page: ResultPage; tokens: number }
  /** Even the first item alone is over the budget. */
  | { kind: "firstItemTooLarge"; tokens: number };

/**
 * The largest prefix of `page` whose content, as the tool answers it (`renderPage`: a
 * table or JSON, and the envelope line), fits the budget (`rendering.limit`), found by
 * binary search: O(log n) probes, each stopping as soon as it passes the budget, instead
 * of re-encoding the page one item at a time. The prefix returned is the one probed, so
 * the shape stage sends the rendering counted here without rendering it again.
 */
export async function fitPage(page: ResultPage, rendering: TextRendering): Promise<FittedPage> {
  const { counter, limit: budget } = rendering;
  const prefixes = new Map<number, ResultPage>();
  const prefix = (n: number) => {
    let made = prefixes.get(n);
    if (!made) {
      made = page.prefix(n);
      prefixes.set(n, made);
    }
    return made;
  };
  const tokensOf = async (n: number) => countUpTo(await renderPage(prefix(n), rendering), counter, budget);

  const whole = await tokensOf(page.count);
  if (whole <= budget) return { kind: "fits", page, tokens: whole };
  let fits = 0;
  let fitsTokens = await tokensOf(0);
  let over = page.count;
  while (over - fits > 1) {
    const middle = (fits + over) >>> 1;
    const tokens = await tokensOf(middle);
    if (tokens <= budget) {
      fits = middle;
      fitsTokens = tokens;
    } else {
      over = middle;
    }
  }
  if (fits === 0 && page.count > 0) return { kind: "firstItemTooLarge", tokens: await tokensOf(1) };
  return { kind: "fits", page: prefix(fits), tokens: fitsTokens };
}
