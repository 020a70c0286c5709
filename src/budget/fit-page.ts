import type { ResultPage } from "../pipeline/outcomes.js";
import { renderPage } from "../pipeline/page-text.js";
import type { TextRendering } from "../results/items-text.js";
import { countUpTo } from "./count-result.js";
import { LoneItemPage } from "./lone-item-page.js";

/** The outcome of fitting a page into a budget. */
export type FittedPage =
  | { kind: "fits"; page: ResultPage; tokens: number }
  /** Even the first item alone, with the least envelope (no cursor), is over the budget. */
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
  if (fits === 0 && page.count > 0) {
    // Alone over the budget only if over it with the least envelope. An item the cursor (or a
    // stream's range) pushes over is sent with them, a little over: never skipped for good.
    const lone = await countUpTo(await renderPage(new LoneItemPage(page), rendering), counter, budget);
    if (lone > budget) return { kind: "firstItemTooLarge", tokens: lone };
    const one = prefix(1);
    const tokens = await countUpTo(await renderPage(one, rendering), counter, Number.MAX_SAFE_INTEGER);
    return { kind: "fits", page: one, tokens };
  }
  return { kind: "fits", page: prefix(fits), tokens: fitsTokens };
}
