import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * An `isError` tool result: the way to tell the model something it can fix. Return it
 * from a handler, or throw any error (its message becomes the text, never its stack).
 *
 * @example
 * ```ts
 * if (!site) return toolError(`Unknown site "${input.site}". Call list_sites to see them.`);
 * ```
 */
export function toolError(message: string, structured?: Record<string, unknown>): CallToolResult {
  const result: CallToolResult = { content: [{ type: "text", text: message }], isError: true };
  if (structured) result.structuredContent = structured;
  return result;
}
