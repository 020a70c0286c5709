import { fieldOf } from "../common/guards.js";

/** Marks an object whose tool result carries a given text instead of the object's JSON. */
const TOOL_TEXT = Symbol.for("frugal-mcp.tool-text");

/**
 * Gives a plain object the text block it is answered with as a tool result: the object
 * still travels as `structuredContent`, but its text block is `text` instead of the
 * object's JSON (so large data, a byte chunk's base64, does not travel twice). The mark
 * is not enumerable: a copy of the object (`{ ...value }`) is answered as plain JSON again.
 *
 * @example
 * ```ts
 * return withToolText(chunk, `${chunk.byteCount} bytes at offset ${chunk.offset}`);
 * ```
 */
export function withToolText<T extends object>(value: T, text: string): T {
  Object.defineProperty(value, TOOL_TEXT, { value: text, enumerable: false, configurable: true });
  return value;
}

/** The text `withToolText` gave a value, or undefined. */
export function toolTextOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const text = fieldOf(value, TOOL_TEXT);
  return typeof text === "string" ? text : undefined;
}

/** Marks an object whose text lists one of its fields as items (a table or JSON) and the rest on one line. */
const ITEMS_FIELD = Symbol.for("frugal-mcp.items-field");

/**
 * Gives a plain object the text of a page: under the tool's default text mode, the array in
 * its field `field` reads as a page's items do (a table when that counts fewer tokens than
 * their JSON), then, after an empty line, its other fields that say something as one
 * `key=value` line (`null`, `false` and empty ones left out, and `count` when it is the
 * number of items). `structuredContent` keeps the whole object; `text: "json"` keeps its JSON.
 * The mark is not enumerable: a copy of the object (`{ ...value }`) reads as plain JSON again.
 *
 * @example
 * ```ts
 * return withItemsText({ matches, count: matches.length, nextOffset: null }, "matches");
 * // text: "path\toffset\ttext\n/body\t120\t…"
 * ```
 */
export function withItemsText<T extends object>(value: T, field: keyof T & string): T {
  Object.defineProperty(value, ITEMS_FIELD, { value: field, enumerable: false, configurable: true });
  return value;
}

/** The field `withItemsText` named, or undefined. */
export function itemsFieldOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const field = (value as { [ITEMS_FIELD]?: unknown })[ITEMS_FIELD];
  return typeof field === "string" ? field : undefined;
}
