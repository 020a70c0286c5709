import { shapePromptResult } from "../results/shape-prompt-result.js";
import { shapeResourceResult } from "../results/shape-resource-result.js";
import { jsonReplacer, shapeToolResult } from "../results/shape-tool-result.js";
import type { Invocation } from "./invocation.js";
import { ResultPage } from "./outcomes.js";

/**
 * The protocol result (`CallToolResult`, `ReadResourceResult`, `GetPromptResult`) that a
 * handler's value becomes. The one place that decides it: the shape stage sends it, the
 * budget counts exactly it. Remembered on the invocation, so when the budget has shaped a
 * value to count it, the shape stage does not shape (and serialize) it again.
 */
export function shapeResult(invocation: Invocation, value: unknown): unknown {
  const memo = invocation.shaped;
  if (memo !== undefined && memo.from === value) return memo.result;
  const { definition } = invocation;
  let result: unknown;
  switch (definition.kind) {
    case "tool":
      result = value instanceof ResultPage ? shapePage(value) : shapeToolResult(value);
      break;
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

/** A page reads as its own content blocks when it has them (links), else as its envelope's JSON. */
function shapePage(page: ResultPage): unknown {
  const content = page.toolContent();
  if (!content) return shapeToolResult(page);
  const envelope: unknown = JSON.parse(JSON.stringify(page, jsonReplacer));
  return { content, structuredContent: envelope };
}
