/** The result of counting: `tokens > limit` means over the limit. */
export interface TokenCount {
  /** Tokens counted; when over the limit, where counting stopped (a lower bound) unless `exact`. */
  readonly tokens: number;
  /** True when `tokens` is the full count of the text. */
  readonly exact: boolean;
  /**
   * When counting stopped early (`exact: false`): how much of the text `tokens` covers, in
   * UTF-16 code units (`text.length` units) from its start. Optional: with it, the budget
   * extrapolates the size of the whole text (tokens per character × characters) and reports
   * it; without it, it falls back to a characters / 4 estimate.
   */
  readonly consumed?: number;
}

/**
 * Counts the tokens a model reads; behind the `TOKEN_COUNTER` token. Implementations
 * should stop early once `limit` is passed, so a decision costs O(limit), not O(text),
 * and should then say how much of the text they counted (`consumed`).
 *
 * @example
 * ```ts
 * // A counter for another model family, registered through DI:
 * providers: [{ provide: TOKEN_COUNTER, useValue: { count: (text, limit) => myCount(text, limit) } }]
 * ```
 */
export interface TokenCounter {
  /** Counts the tokens of `text`, and may stop once the count passes `limit`. */
  count(text: string, limit: number): TokenCount | Promise<TokenCount>;
  /** Loads whatever is costly (a tokenizer's tables) ahead of the first count. */
  load?(): Promise<void>;
}
