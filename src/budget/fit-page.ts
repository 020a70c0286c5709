import type { ResultPage } from "../pipeline/outcomes.js";
import { jsonReplacer } from "../results/shape-tool-result.js";
import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";

/** The outcome of fitting a page into a budget. */
export type FittedPage =
  | { kind: "fits"; page: ResultPage; tokens: number }
  /** Even the first item alone is over the budget. */
  | { kind: "firstItemTooLarge"; tokens: number };

/**
 * The largest prefix of `page` whose JSON text fits `budget`, found by binary search:
 * O(log n) probes, each stopping as soon as it passes the budget, instead of
 * re-encoding the page one item at a time.
 */
export async function fitPage(page: ResultPage, budget: number, counter: TokenCounter): Promise<FittedPage> {
  const render = (n: number) => JSON.stringify(page.prefix(n), jsonReplacer);
  const fitted = await fitPrefix(page.count, render, budget, counter);
  if (fitted.n === 0 && page.count > 0) {
    return { kind: "firstItemTooLarge", tokens: (await counter.count(render(1), budget)).tokens };
  }
  return { kind: "fits", page: page.prefix(fitted.n), tokens: fitted.tokens };
}
