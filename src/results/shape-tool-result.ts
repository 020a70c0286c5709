import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isContentBlock } from "./content.js";

/**
 * Turns whatever a tool handler returned into a `CallToolResult`:
 * - a string becomes one text block;
 * - a helper block (`text()`, `image()`, …) or an array of them becomes the content;
 * - a full `CallToolResult` (an object with a `content` array of blocks) passes through;
 * - `undefined` becomes an empty result;
 * - a plain object becomes `structuredContent` plus its JSON text;
 * - anything else (arrays, numbers, …) becomes its JSON text.
 */
export function shapeToolResult(value: unknown): CallToolResult {
  if (typeof value === "string") return { content: [{ type: "text", text: value }] };
  if (value === undefined) return { content: [] };
  if (isContentBlock(value)) return { content: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return { content: value };
  if (isCallToolResult(value)) return value;
  const json = jsonOf(value);
  if (isPlainObject(value)) {
    return { content: [{ type: "text", text: json }], structuredContent: JSON.parse(json) };
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

// The budget stage serializes a result to count it; the shape stage reuses that text
// instead of serializing the same object again.
const serialized = new WeakMap<object, string>();

/** The JSON text of a handler's value, serialized once per value. */
export function jsonOf(value: unknown): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value, jsonReplacer);
  let json = serialized.get(value);
  if (json === undefined) {
    json = JSON.stringify(value, jsonReplacer) ?? "null";
    serialized.set(value, json);
  }
  return json;
}

/** Whether shaping turns this value into its JSON text (rather than text or content blocks). */
export function shapesAsJson(value: unknown): boolean {
  if (value === undefined || typeof value === "string" || isContentBlock(value)) return false;
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) return false;
  return !isCallToolResult(value);
}
