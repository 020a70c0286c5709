import type { TokenCounter } from "./token-counter.js";

/**
 * The largest `n` in `[0, max]` whose rendering fits `budget` tokens, by binary search
 * (each probe stops counting once past the budget). Returns the tokens of that rendering.
 */
export async function fitPrefix(
  max: number,
  render: (n: number) => string,
  budget: number,
  counter: TokenCounter,
): Promise<{ n: number; tokens: number }> {
  const tokensOf = async (n: number) => (await counter.count(render(n), budget)).tokens;
  const whole = await tokensOf(max);
  if (whole <= budget) return { n: max, tokens: whole };
  let fits = 0;
  let fitsTokens = await tokensOf(0);
  let over = max;
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
  return { n: fits, tokens: fitsTokens };
}
