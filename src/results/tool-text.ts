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
