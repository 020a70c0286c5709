import type { TextRendering } from "../results/items-text.js";
import { shapePromptResult } from "../results/shape-prompt-result.js";
import { shapeResourceResult } from "../results/shape-resource-result.js";
import { shapeToolResult } from "../results/shape-tool-result.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { Invocation } from "./invocation.js";
import { ResultPage } from "./outcomes.js";
import { renderPage } from "./page-text.js";
import { callTokenLimit, DEFAULT_TOKEN_LIMIT } from "./token-limit.js";

/**
 * The protocol result (`CallToolResult`, `ReadResourceResult`, `GetPromptResult`) that a
 * handler's value becomes. The one place that decides it: the shape stage sends it, the
 * budget counts exactly it. Remembered on the invocation, so when the budget has shaped a
 * value to count it, the shape stage does not shape (and serialize) it again.
 */
export async function shapeResult(invocation: Invocation, value: unknown, counter: TokenCounter) {
  const memo = invocation.shaped;
  if (memo !== undefined && memo.from === value) return memo.result;
  const { definition } = invocation;
  let result: unknown;
  switch (definition.kind) {
    case "tool": {
      const rendering = textRendering(invocation, counter);
      result =
        value instanceof ResultPage
          ? await shapePage(value, rendering)
          : await shapeToolResult(value, rendering);
      break;
    }
    case "resource":
      result = shapeResourceResult(value, invocation.uri ?? definition.uri, definition.mimeType);
      break;
    case "prompt":
      result = shapePromptResult(value, definition.listing.description);
      break;
  }
  invocation.shaped = { from: value, result };
  return result;
}

/**
 * How a tool call's text is rendered: its tool's mode (`text` option), and for choosing a
 * table, the call's budget (or the default limit) as where counting may stop.
 */
export function textRendering(invocation: Invocation, counter: TokenCounter): TextRendering {
  const { definition } = invocation;
  return {
    mode: definition.kind === "tool" ? definition.text : "json",
    counter,
    limit: callTokenLimit(definition, invocation.ctx.meta) ?? DEFAULT_TOKEN_LIMIT,
  };
}

/** A page: its envelope as `structuredContent`, its text (and links) as `renderPage` makes them. */
async function shapePage(page: ResultPage, rendering: TextRendering) {
  const { content, envelope } = await renderPage(page, rendering);
  return { content, structuredContent: envelope };
}
