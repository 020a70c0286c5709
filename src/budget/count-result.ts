import { fieldOf, isObject } from "../common/guards.js";
import type { TokenCount, TokenCounter } from "../tokenizer/token-counter.js";
import { type CountedText, extrapolate } from "./extrapolate.js";

/** Tokens charged for an image or an audio clip, which a model does not read as text. */
export const MEDIA_TOKENS = 1000;

/** What `countResult` answers. */
export interface ResultCount extends TokenCount {
  /** Set when counting stopped early: `tokens` is then the whole result's size, extrapolated. */
  readonly estimated?: true;
}

/**
 * Counts what a model reads of a shaped result, stopping once `limit` is passed:
 * text blocks and `resource_link`s of a tool result (its `structuredContent` only when
 * there is no text, since a page's text already carries it), text contents of a resource
 * read, and prompt messages; images and audio count `MEDIA_TOKENS` each; a resource's binary
 * content (a blob) counts by its size, as its base64 text, so a large one is never waved
 * through as a flat amount.
 *
 * Within the limit, `tokens` is what was counted. Over it, `tokens` is the size of the
 * whole result: exact when every part was counted, else extrapolated from what was
 * (`extrapolate`) with `estimated: true`. Either way, counting stops once past the limit.
 */
export async function countResult(
  result: unknown,
  counter: TokenCounter,
  limit: number,
): Promise<ResultCount> {
  const parts = [...readableParts(result)];
  const counts: Array<TokenCount | undefined> = [];
  let total = 0;
  let exact = true;
  let next = 0;
  while (next < parts.length && total <= limit) {
    const part = parts[next];
    if (typeof part === "number") {
      total += part;
    } else {
      const counted = await counter.count(part, Math.max(0, limit - total));
      counts[next] = counted;
      total += counted.tokens;
      exact &&= counted.exact;
    }
    next++;
  }
  if (total <= limit) return { tokens: total, exact };

  // Over the limit. What was not counted: media (fixed amounts) and text (to extrapolate).
  let fixed = 0;
  const texts: CountedText[] = [];
  parts.forEach((part, i) => {
    if (typeof part === "number") fixed += part;
    else texts.push(countedText(part, i < next ? counts[i] : undefined));
  });
  if (exact && texts.every((text) => text.covered === text.text.length)) {
    return { tokens: fixed + texts.reduce((sum, text) => sum + text.tokens, 0), exact: true };
  }
  const whole = fixed + (await extrapolate(texts, counter));
  return { tokens: Math.max(total, Math.round(whole)), exact: false, estimated: true };
}

/**
 * What a model reads of a shaped result, counted until it passes `limit`: the count, exact
 * within the limit, else a lower bound just past it (no estimate of the whole: a probe that
 * only asks "does it fit?" needs none).
 */
export async function countUpTo(result: unknown, counter: TokenCounter, limit: number): Promise<number> {
  let total = 0;
  for (const part of readableParts(result)) {
    if (total > limit) break;
    total += typeof part === "number" ? part : (await counter.count(part, Math.max(0, limit - total))).tokens;
  }
  return total;
}

/** A text part and what counting it taught: tokens over how many of its characters. */
function countedText(text: string, counted: TokenCount | undefined): CountedText {
  if (counted === undefined) return { text, tokens: 0, covered: 0, consumedReported: false };
  if (counted.exact) return { text, tokens: counted.tokens, covered: text.length, consumedReported: false };
  const { consumed } = counted;
  const known = typeof consumed === "number" && Number.isFinite(consumed) && consumed >= 0;
  return {
    text,
    tokens: counted.tokens,
    covered: known ? Math.min(consumed, text.length) : undefined,
    consumedReported: known,
  };
}

/** The parts of a result a model reads: strings to count, or fixed token amounts. */
export function* readableParts(result: unknown): Generator<string | number> {
  if (!isObject(result)) return;
  const { content, contents, messages, structuredContent } = result;
  if (Array.isArray(content)) {
    let sawText = false;
    for (const block of content) {
      sawText ||= fieldOf(block, "type") === "text";
      yield* blockParts(block);
    }
    if (!sawText && structuredContent !== undefined) yield JSON.stringify(structuredContent);
  }
  if (Array.isArray(contents)) for (const item of contents) yield* resourceParts(item);
  if (Array.isArray(messages)) for (const message of messages) yield* blockParts(fieldOf(message, "content"));
}

function* blockParts(block: unknown): Generator<string | number> {
  if (!isObject(block)) return;
  const typed = block;
  switch (typed.type) {
    case "text":
      yield String(typed.text ?? "");
      return;
    case "resource_link": {
      const { type: _type, ...link } = typed;
      yield JSON.stringify(link);
      return;
    }
    case "resource":
      yield* resourceParts(typed.resource);
      return;
    default:
      yield MEDIA_TOKENS;
  }
}

function* resourceParts(item: unknown): Generator<string | number> {
  if (!isObject(item)) return;
  const { text, blob } = item;
  if (typeof text === "string") yield text;
  else if (typeof blob === "string") yield blob;
  else yield MEDIA_TOKENS;
}
