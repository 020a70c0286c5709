/** The result of counting: `tokens > limit` means over the limit. */
export interface TokenCount {
  /** Tokens counted; when over the limit, where counting stopped (a lower bound) unless `exact`. */
  readonly tokens: number;
  /** True when `tokens` is the full count of the text. */
  readonly exact: boolean;
}

/**
 * Counts the tokens a model reads; behind the `TOKEN_COUNTER` token. Implementations
 * should stop early once `limit` is passed, so a decision costs O(limit), not O(text).
 *
 * @example
 * ```ts
 * // A counter for another model family, registered through DI:
 * providers: [{ provide: TOKEN_COUNTER, useValue: { count: (text, limit) => myCount(text, limit) } }]
 * ```
 */
export interface TokenCounter {
  count(text: string, limit: number): TokenCount | Promise<TokenCount>;
  /** Loads whatever is costly (a tokenizer's tables) ahead of the first count. */
  load?(): Promise<void>;
}
