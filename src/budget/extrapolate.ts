import type { TokenCounter } from "../tokenizer/token-counter.js";

/** A text part of a result and what counting its start taught. */
export interface CountedText {
  readonly text: string;
  /** Tokens counted at its start (0 when it was not counted). */
  readonly tokens: number;
  /** Characters (UTF-16 code units) those tokens cover; `undefined` when the counter did not say. */
  readonly covered: number | undefined;
  /** The counter stopped early and said where (`consumed`): it can be sampled at O(sample) cost. */
  readonly consumedReported: boolean;
}

/** Samples counted in the uncounted rest, one in the middle of each of as many equal strata. */
export const SAMPLES = 8;
/** Tokens a sample aims at: small next to a budget, large enough for a steady tokens-per-character rate. */
export const SAMPLE_TOKENS = 64;
/** The characters-per-token fallback (tokens = characters / 4) when nothing better was measured. */
export const FALLBACK_TOKENS_PER_CHAR = 1 / 4;
// Samples whose rate is within this fraction of the counted start's say the text is alike throughout.
export const AGREEMENT = 0.1;
// Fewer characters than this measured give too noisy a rate: use the fallback instead.
const MIN_MEASURED_CHARS = 256;
// A sample's length in characters is SAMPLE_TOKENS at the measured rate, within these bounds.
const MIN_SAMPLE_CHARS = 64;
const MAX_SAMPLE_CHARS = SAMPLE_TOKENS * 16;

const encoder = new TextEncoder();
// ignoreBOM keeps a leading U+FEFF in the copy (by default it is dropped).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The tokens of whole texts of which only a start (or nothing) was counted, at O(samples)
 * cost, never counting the whole:
 *
 * - what was counted counts as counted;
 * - the rest is measured in characters (`string.length`: O(1), where a UTF-8 byte length
 *   would scan the whole payload) and priced in tokens per character. When the counter
 *   said where it stopped (`consumed`, as `BpeTokenCounter` does), the rest is cut into
 *   `SAMPLES` equal strata and a sample of about `SAMPLE_TOKENS` is counted in the middle
 *   of each: if they agree with the counted start, everything counted gives one rate;
 *   if not, each stratum is priced at its own sample's rate, so a start unlike the rest
 *   (a JSON envelope, a preamble) does not skew the whole. Without `consumed`, the rest is
 *   priced at the rate measured on what was counted, or at characters / 4 when too
 *   little was (no extra calls to a counter whose cost is unknown);
 * - a text counted without saying how much of it was covered counts at least its counted
 *   tokens, else its length at that rate.
 */
export async function extrapolate(texts: readonly CountedText[], counter: TokenCounter): Promise<number> {
  const measured = { tokens: 0, chars: 0 };
  for (const { tokens, covered } of texts) {
    if (covered === undefined || covered === 0) continue;
    measured.tokens += tokens;
    measured.chars += covered;
  }
  const rate =
    measured.chars >= MIN_MEASURED_CHARS ? measured.tokens / measured.chars : FALLBACK_TOKENS_PER_CHAR;

  let total = 0;
  const rest: Segment[] = [];
  for (const { text, tokens, covered } of texts) {
    if (covered === undefined) {
      total += Math.max(tokens, text.length * rate);
      continue;
    }
    total += tokens;
    if (covered < text.length) rest.push({ text, from: covered, to: text.length });
  }
  const sampling = texts.some((text) => text.consumedReported);
  return total + (sampling ? await sampledTokens(rest, counter, measured, rate) : rate * lengthOf(rest));
}

/** Uncounted characters `[from, to)` of a text. */
interface Segment {
  readonly text: string;
  readonly from: number;
  readonly to: number;
}

const lengthOf = (segments: readonly Segment[]) => segments.reduce((sum, s) => sum + s.to - s.from, 0);

/**
 * The tokens of the segments, from one sample in the middle of each stratum. When the
 * samples agree with what was counted (within `AGREEMENT`), the text is alike throughout
 * and all of it gives one rate; otherwise each stratum is priced at its own sample's rate.
 */
async function sampledTokens(
  rest: readonly Segment[],
  counter: TokenCounter,
  measured: Counted,
  rate: number,
) {
  const length = lengthOf(rest);
  if (length === 0) return 0;
  const stratum = length / SAMPLES;
  const target = Math.round(SAMPLE_TOKENS / rate);
  const sampleChars = Math.min(stratum, Math.max(MIN_SAMPLE_CHARS, Math.min(MAX_SAMPLE_CHARS, target)));
  const samples: Array<Counted | undefined> = [];
  for (let k = 0; k < SAMPLES; k++)
    samples.push(await sample(rest, (k + 0.5) * stratum, sampleChars, counter));

  const sampled = { tokens: 0, chars: 0 };
  for (const one of samples) {
    sampled.tokens += one?.tokens ?? 0;
    sampled.chars += one?.chars ?? 0;
  }
  const alike =
    measured.chars >= MIN_MEASURED_CHARS &&
    samples.every((one) => one !== undefined) &&
    Math.abs(sampled.tokens / sampled.chars / rate - 1) <= AGREEMENT;
  if (alike) return (length * (measured.tokens + sampled.tokens)) / (measured.chars + sampled.chars);
  return samples.reduce((sum, one) => sum + stratum * (one ? one.tokens / one.chars : rate), 0);
}

/** Tokens counted over how many characters. */
interface Counted {
  tokens: number;
  chars: number;
}

/** About `chars` characters around `at` (an offset into the segments laid end to end), counted. */
async function sample(
  rest: readonly Segment[],
  at: number,
  chars: number,
  counter: TokenCounter,
): Promise<Counted | undefined> {
  let offset = 0;
  let index = 0;
  while (index < rest.length - 1 && at >= offset + rest[index].to - rest[index].from) {
    offset += rest[index].to - rest[index].from;
    index++;
  }
  const { text, from, to } = rest[index];
  const width = Math.max(1, Math.min(to - from, Math.round(chars)));
  let start = Math.max(from, Math.min(to - width, Math.round(from + at - offset - width / 2)));
  let end = start + width;
  // Cut where a word starts (a space before a non-space), as BPE pre-tokens are cut, so a
  // sample does not count a split word twice; else at least never inside a surrogate pair.
  const after = wordStartAfter(text, start, end);
  const before = wordStartBefore(text, end, start);
  if (after < before) [start, end] = [after, before];
  if (isLowSurrogate(text.charCodeAt(start)) && start + 1 < end) start++;
  if (isHighSurrogate(text.charCodeAt(end - 1)) && end - 1 > start) end--;
  // A fresh copy: a slice would keep the whole payload alive in a counter that remembers texts.
  const copy = decoder.decode(encoder.encode(text.slice(start, end)));
  const counted = await counter.count(copy, SAMPLE_TOKENS * 4);
  const covered = counted.exact ? copy.length : counted.consumed;
  if (covered === undefined || !(covered > 0)) return undefined;
  return { tokens: counted.tokens, chars: covered };
}

// How far a sample's edge may move to reach a word start.
const ALIGN_CHARS = 32;

/** The first word start in `[at, at + ALIGN_CHARS)` before `limit`, else `at`. */
function wordStartAfter(text: string, at: number, limit: number): number {
  for (let p = at; p < Math.min(limit, at + ALIGN_CHARS); p++) if (isWordStart(text, p)) return p;
  return at;
}

/** The last word start in `(at - ALIGN_CHARS, at]` after `limit`, else `at`. */
function wordStartBefore(text: string, at: number, limit: number): number {
  for (let p = at; p > Math.max(limit, at - ALIGN_CHARS); p--) if (isWordStart(text, p)) return p;
  return at;
}

/** A space (or tab, or line break) followed by something else: where a pre-token like ` word` starts. */
const isWordStart = (text: string, p: number) =>
  isSpace(text.charCodeAt(p)) && p + 1 < text.length && !isSpace(text.charCodeAt(p + 1));
const isSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
