import { toolError } from "../results/tool-error.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { StoredContent } from "./entry-reader.js";
import { PointerError } from "./json-pointer.js";
import { readWindow, WindowError } from "./text-window.js";

/** Input of `read_resource`, as validated by its schema. */
export interface ReadInput {
  uri: string;
  offset?: number | undefined;
  limit?: number | undefined;
  index?: number | undefined;
  path?: string | undefined;
}

/**
 * Characters read ahead per token of budget when the client gives no `limit`: more than
 * any text holds per token, so the budget (not this) ends the window.
 */
const CHARS_PER_TOKEN = 6;

/**
 * `read_resource` with `path` or `index`: a window of characters of one string field (or
 * line, or item's JSON text), answered `{ text, offset, nextOffset, totalChars }` and held
 * to the budget: a window too long shrinks to fit, and `nextOffset` says where the next starts.
 */
export async function readTextWindow(
  input: ReadInput,
  meta: StoredResourceMeta,
  content: StoredContent,
  budget: number,
  counter: TokenCounter,
) {
  const offset = input.offset ?? 0;
  const limit = input.limit ?? budget * CHARS_PER_TOKEN;
  let window: Awaited<ReturnType<typeof readWindow>>;
  try {
    window = await readWindow(content, meta, { index: input.index, path: input.path }, offset, limit);
  } catch (error) {
    if (error instanceof WindowError || error instanceof PointerError)
      return toolError(`Cannot read ${input.uri}: ${error.message}.`);
    throw error;
  }
  const { text, totalChars } = window;
  const where = {
    uri: meta.uri,
    version: meta.version,
    ...(input.index === undefined ? {} : { index: input.index }),
    ...(input.path === undefined ? {} : { path: input.path }),
  };
  const answer = (n: number) => {
    // Never end a window between the two halves of a surrogate pair.
    const cut = n > 1 && n < text.length && isHighSurrogate(text.charCodeAt(n - 1)) ? n - 1 : n;
    const next = offset + cut;
    return {
      ...where,
      text: text.slice(0, cut),
      offset,
      nextOffset: next < totalChars ? next : null,
      totalChars,
    };
  };
  const fitted = await fitPrefix(text.length, (n) => JSON.stringify(answer(n)), budget, counter);
  if (fitted.n === 0 && text.length > 0)
    return toolError(`Cannot read ${input.uri}: the token budget (${budget}) holds no text of this window.`);
  return answer(fitted.n);
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
