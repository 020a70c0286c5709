import type { TokenCount, TokenCounter } from "../tokenizer/token-counter.js";

/** Tokens charged for an image, an audio clip or a binary blob, which a model does not read as text. */
export const MEDIA_TOKENS = 1000;

/**
 * Counts what a model reads of a shaped result, stopping once `limit` is passed:
 * text blocks and `resource_link`s of a tool result (its `structuredContent` only when
 * there is no text, since a page's text already carries it), text contents of a resource
 * read, and prompt messages; images, audio and blobs count `MEDIA_TOKENS` each.
 */
export async function countResult(
  result: unknown,
  counter: TokenCounter,
  limit: number,
): Promise<TokenCount> {
  let total = 0;
  let exact = true;
  for (const part of readableParts(result)) {
    const remaining = limit - total;
    if (typeof part === "number") {
      total += part;
    } else {
      const counted = await counter.count(part, Math.max(0, remaining));
      total += counted.tokens;
      exact &&= counted.exact;
    }
    if (total > limit) return { tokens: total, exact: false };
  }
  return { tokens: total, exact };
}

/** The parts of a result a model reads: strings to count, or fixed token amounts. */
function* readableParts(result: unknown): Generator<string | number> {
  if (typeof result !== "object" || result === null) return;
  const { content, contents, messages, structuredContent } = result as Record<string, unknown>;
  if (Array.isArray(content)) {
    let sawText = false;
    for (const block of content) {
      sawText ||= (block as { type?: string }).type === "text";
      yield* blockParts(block);
    }
    if (!sawText && structuredContent !== undefined) yield JSON.stringify(structuredContent);
  }
  if (Array.isArray(contents)) for (const item of contents) yield* resourceParts(item);
  if (Array.isArray(messages))
    for (const message of messages) yield* blockParts((message as { content?: unknown }).content);
}

function* blockParts(block: unknown): Generator<string | number> {
  if (typeof block !== "object" || block === null) return;
  const typed = block as Record<string, unknown>;
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
  if (typeof item !== "object" || item === null) return;
  const { text } = item as { text?: unknown };
  if (typeof text === "string") yield text;
  else yield MEDIA_TOKENS;
}
