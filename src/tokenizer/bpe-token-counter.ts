import { CompactBpe, deleteOldest } from "./compact-bpe.js";
import type { TokenCount, TokenCounter } from "./token-counter.js";

/** Encodings of gpt-tokenizer that `BpeTokenCounter` can load. */
export type BpeEncoding = "o200k_base" | "cl100k_base";

/** Options of `BpeTokenCounter`. */
export interface BpeTokenCounterOptions {
  /** The BPE encoding (default `o200k_base`, used by current OpenAI models). */
  encoding?: BpeEncoding;
}

// JSON averages 3–4 characters a token; start with a prefix comfortably longer than that.
const CHARS_PER_TOKEN_GUESS = 8;
// The last pre-token of a prefix may be split by the cut: allow a few tokens of slack.
const CUT_SLACK = 64;
// BPE merges within one pre-token cost time quadratic in its length (tiktoken's merge loop; 16,000
// letters in a row: 0.1 s idle, seconds under load; 100,000: several seconds), and a
// pre-token is any run of letters or of punctuation. Counting a run in pieces of this many
// characters is linear, and overcounts such a run by a few tokens a piece (6 % on a run of
// one repeated letter; nothing on prose, code, JSON or base64, whose pre-tokens are short).
const MAX_RUN = 256;
const LONG_RUN = new RegExp(`\\S{${MAX_RUN}}(?=\\S)`);
const LONG_RUNS = new RegExp(LONG_RUN.source, "g");
// Recent whole counts kept (texts up to 32 K characters): bounded memory, first in first out.
const MEMO_ENTRIES = 256;
const MEMO_MAX_CHARS = 32 * 1024;

/**
 * The default `TOKEN_COUNTER`: a real BPE tokenizer (gpt-tokenizer's vocabulary and
 * pre-tokenizer, held compactly by `CompactBpe`: 8–15 MB), loaded on first use, so apps
 * that count no tokens never pay; an app that does starts loading it in the background once
 * built. User text is data: special-token strings such as `<|endoftext|>` count as plain text.
 *
 * A decision costs O(limit), not O(text): it counts a prefix of about `limit × 8`
 * characters, and only if that prefix is still under the limit does it look further
 * (quadrupling the prefix). BPE encodes pre-token chunks independently, so a prefix
 * over `limit + slack` proves the whole text is over `limit`. Stopping early, it reports
 * how many characters its tokens cover (`consumed`: the pre-tokens counted), so the whole
 * can be extrapolated.
 *
 * @example
 * ```ts
 * providers: [{ provide: TOKEN_COUNTER, useValue: new BpeTokenCounter({ encoding: "cl100k_base" }) }]
 * ```
 */
export class BpeTokenCounter implements TokenCounter {
  private encoder: CompactBpe | undefined;
  private readonly memo = new Map<string, number>();
  private loading: Promise<void> | undefined;
  private readonly encoding: BpeEncoding;

  constructor(options: BpeTokenCounterOptions = {}) {
    this.encoding = options.encoding ?? "o200k_base";
  }

  /** Reads the encoding's vocabulary (once; a failed read is tried again on the next call). */
  load(): Promise<void> {
    this.loading ??= CompactBpe.load(this.encoding).then(
      (encoder) => {
        this.encoder = encoder;
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  async count(text: string, limit: number = Number.POSITIVE_INFINITY): Promise<TokenCount> {
    if (!this.encoder) await this.load();
    return this.countLoaded(text, limit);
  }

  /**
   * `count`, answered at once: the vocabulary is read blocking if it is not loaded yet. For
   * tests and scripts (`tokensOf`); a server counts with `count`, which never blocks a request.
   *
   * @example
   * ```ts
   * new BpeTokenCounter().countSync('{"id":1}', Number.MAX_SAFE_INTEGER); // { tokens: 6, exact: true }
   * ```
   */
  countSync(text: string, limit: number = Number.POSITIVE_INFINITY): TokenCount {
    this.encoder ??= CompactBpe.loadSync(this.encoding);
    return this.countLoaded(text, limit);
  }

  /** Counts with the tokenizer already loaded. */
  private countLoaded(text: string, limit: number): TokenCount {
    // A limit that is no number would grow the prefix forever (NaN compares false).
    if (typeof limit !== "number" || Number.isNaN(limit) || limit < 0)
      throw new TypeError(
        `count: the limit must be a number of tokens ≥ 0 (or left out), not ${String(limit)}`,
      );
    let prefixLength = Math.max(1024, limit * CHARS_PER_TOKEN_GUESS);
    // A text this short costs O(limit) to count whole; the non-generator count is the fastest way.
    if (text.length <= prefixLength) return { tokens: this.countWhole(text), exact: true };
    for (;;) {
      if (prefixLength >= text.length) return this.countUpTo(text, limit);
      const stop = limit + CUT_SLACK;
      const prefix = this.countUpTo(text.slice(0, prefixLength), stop);
      if (!prefix.exact) return lessSlack(prefix);
      prefixLength *= 4;
    }
  }

  /**
   * Counts a whole (short) text, remembering recent answers: the same result is often
   * counted again (a cached tool, a page re-read), and a map lookup is far cheaper than BPE.
   */
  private countWhole(text: string): number {
    const memoable = text.length <= MEMO_MAX_CHARS;
    const known = memoable ? this.memo.get(text) : undefined;
    if (known !== undefined) return known;
    const tokens = (this.encoder as CompactBpe).count(breakLongRuns(text));
    if (memoable) {
      if (this.memo.size >= MEMO_ENTRIES) deleteOldest(this.memo);
      this.memo.set(text, tokens);
    }
    return tokens;
  }

  /** Counts until `limit` is passed; then says how many characters the tokens counted cover. */
  private countUpTo(text: string, limit: number): TokenCount {
    const encoder = this.encoder as CompactBpe;
    let tokens = 0;
    let consumed = 0;
    for (const [piece] of encoder.pieces(breakLongRuns(text))) {
      tokens += encoder.countPiece(piece);
      consumed += piece.length;
      // Pieces are whole pre-tokens, so their tokens cover exactly their characters.
      if (tokens > limit) return { tokens, exact: false, consumed };
    }
    return { tokens, exact: true };
  }
}

/**
 * The text with a space after every `MAX_RUN` characters of a longer run of non-space
 * characters, so no pre-token is longer than that (see `MAX_RUN`). Texts without such a run,
 * nearly all of them, are returned as they are after one linear scan.
 */
export function breakLongRuns(text: string): string {
  return text.length > MAX_RUN && hasLongRun(text) ? text.replace(LONG_RUNS, "$& ") : text;
}

/**
 * Whether the text may hold a run of more than `MAX_RUN` non-space characters, in one pass
 * over its character codes. `LONG_RUN.test` answers the same but backtracks at every
 * position of a run (O(length × run length): 0.6 ms on 3 KB of JSON, whose runs are long,
 * six times the cost of counting it). Only ASCII whitespace ends a run here, so a run
 * broken by another kind of space is reported too: the regular expression then decides.
 */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 32 || (code >= 9 && code <= 13)) run = 0;
    else if (++run > MAX_RUN) return LONG_RUN.test(text);
  }
  return false;
}

/**
 * A prefix's count, stopped past `limit + CUT_SLACK`: less the slack, since the cut may have
 * split a pre-token, it is a lower bound of the whole text's count; it covers
 * proportionally fewer characters, keeping the prefix's tokens per character.
 */
function lessSlack(prefix: TokenCount): TokenCount {
  const tokens = prefix.tokens - CUT_SLACK;
  return {
    tokens,
    exact: false,
    get consumed() {
      return Math.floor(((prefix.consumed ?? 0) * tokens) / prefix.tokens);
    },
  };
}
