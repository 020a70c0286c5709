import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isContentBlock } from "./content.js";
import { itemsText, type TextRendering } from "./items-text.js";
import { toJsonValue } from "./json-value.js";
import { toolTextOf } from "./tool-text.js";

export { jsonReplacer } from "./json-value.js";

/**
 * Turns whatever a tool handler returned into a `CallToolResult`:
 * - a string becomes one text block;
 * - a helper block (`text()`, `image()`, …) or an array of them becomes the content;
 * - a full `CallToolResult` (an object with a `content` array of blocks) passes through;
 * - `undefined` becomes an empty result;
 * - a plain object marked by `withToolText` (a byte chunk) becomes `structuredContent`
 *   plus that one text, never its JSON again;
 * - a plain object becomes `structuredContent` plus its JSON text;
 * - an array becomes its text: under `mode: "auto"`, a table when its items are uniform
 *   objects and the table counts fewer tokens than the JSON (`itemsText`), else the JSON;
 * - anything else (numbers, …) becomes its JSON text.
 *
 * The value is converted to JSON once (`toJsonValue`: no text written and read back), and
 * the JSON text is written from that only when it is the text sent.
 */
export async function shapeToolResult(value: unknown, rendering: TextRendering): Promise<CallToolResult> {
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
  const json = toJsonValue(value);
  if (isPlainObject(value)) {
    const structured = (json ?? null) as CallToolResult["structuredContent"];
    return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured };
  }
  if (Array.isArray(json) && rendering.mode === "auto") {
    return { content: [{ type: "text", text: await itemsText(json, rendering) }] };
  }
  // Undefined for values JSON cannot express (a function): then their string form.
  return { content: [{ type: "text", text: json === undefined ? String(value) : JSON.stringify(json) }] };
}

function isCallToolResult(value: unknown): value is CallToolResult {
  if (!isPlainObject(value)) return false;
  const content = value.content;
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
