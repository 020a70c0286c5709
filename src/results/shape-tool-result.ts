import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isContentBlock } from "./content.js";
import { itemsText, objectText, type TextRendering } from "./items-text.js";
import { type JsonObject, type JsonValue, toJsonValue } from "./json-value.js";
import { envelopeLine } from "./table-format.js";
import { itemsFieldOf, toolTextOf } from "./tool-text.js";

export { jsonReplacer } from "./json-value.js";

/**
 * Turns whatever a tool handler returned into a `CallToolResult`:
 * - a string becomes one text block;
 * - a helper block (`text()`, `image()`, …) or an array of them becomes the content;
 * - a full `CallToolResult` (an object with a `content` array of blocks) passes through;
 * - `undefined` becomes an empty result;
 * - a plain object marked by `withToolText` (a byte chunk) becomes `structuredContent`
 *   plus that one text, never its JSON again;
 * - a plain object becomes `structuredContent` plus its text: its JSON, or under
 *   `mode: "compact"` its `key=value` lines when it is flat and they count fewer tokens than
 *   its JSON (`objectText`); one marked by `withItemsText` reads as a page does (its items
 *   as a table or JSON, then its other fields on one line) unless the mode is `"json"`;
 * - an array becomes its text: unless the mode is `"json"`, a table when its items are uniform
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
    const text =
      rendering.mode !== "json" && isPlainObject(structured)
        ? await leanObjectText(structured as JsonObject, itemsFieldOf(value), rendering)
        : JSON.stringify(structured);
    return { content: [{ type: "text", text }], structuredContent: structured };
  }
  if (Array.isArray(json) && rendering.mode !== "json") {
    return { content: [{ type: "text", text: await itemsText(json, rendering) }] };
  }
  // Undefined for values JSON cannot express (a function): then their string form.
  return { content: [{ type: "text", text: json === undefined ? String(value) : JSON.stringify(json) }] };
}

/**
 * An object's text under `"auto"` or `"compact"`: with an items field (`withItemsText`), its
 * items as a page's are, then its other fields that say something on one line; else, under
 * `"compact"`, its `key=value` lines or JSON (`objectText`), and under `"auto"` its JSON.
 */
async function leanObjectText(object: JsonObject, field: string | undefined, rendering: TextRendering) {
  const items = field === undefined ? undefined : object[field];
  if (!Array.isArray(items))
    return rendering.mode === "compact" ? objectText(object, rendering) : JSON.stringify(object);
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    if (key === field || (key === "count" && value === items.length)) continue;
    rest[key] = value as JsonValue;
  }
  const line = envelopeLine(rest);
  return itemsText(items, rendering, line === "" ? "" : `\n\n${line}`);
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
