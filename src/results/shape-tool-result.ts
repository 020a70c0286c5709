import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isContentBlock } from "./content.js";
import { toolTextOf } from "./tool-text.js";

/**
 * Turns whatever a tool handler returned into a `CallToolResult`:
 * - a string becomes one text block;
 * - a helper block (`text()`, `image()`, …) or an array of them becomes the content;
 * - a full `CallToolResult` (an object with a `content` array of blocks) passes through;
 * - `undefined` becomes an empty result;
 * - a plain object marked by `withToolText` (a byte chunk) becomes `structuredContent`
 *   plus that one text, never its JSON again;
 * - a plain object becomes `structuredContent` plus its JSON text;
 * - anything else (arrays, numbers, …) becomes its JSON text.
 */
export function shapeToolResult(value: unknown): CallToolResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value === undefined) return { content: [] };
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return { content: value };
  if (isCallToolResult(value)) return value;
  const ownText = toolTextOf(value);
  if (ownText !== undefined && isPlainObject(value)) {
    // Its data is JSON already (a byte chunk: strings and numbers); a shallow copy drops the mark.
    return { content: [{ type: "text", text: ownText }], structuredContent: { ...value } };
  }
  // Undefined for values JSON cannot express (a function): then their string form.
  const json: string | undefined = JSON.stringify(value, jsonReplacer);
  if (isPlainObject(value)) {
    const text = json ?? "null";
    return { content: [{ type: "text", text }], structuredContent: JSON.parse(text) };
  }
  return { content: [{ type: "text", text: json ?? String(value) }] };
}

/** A JSON replacer that keeps bigints (as strings) instead of throwing on them. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

function isCallToolResult(value: unknown): value is CallToolResult {
  if (!isPlainObject(value)) return false;
  const content = (value as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every((block) => typeof block === "object" && block !== null && typeof block.type === "string")
  );
}

/** An object literal or a class instance, but not an array, a date, a buffer or a map. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return !(
    value instanceof Date ||
    value instanceof Uint8Array ||
    value instanceof Map ||
    value instanceof Set
  );
}
