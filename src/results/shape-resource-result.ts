import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { isObject } from "../common/guards.js";
import { jsonReplacer } from "./shape-tool-result.js";

/**
 * Turns what a resource handler returned into a `ReadResourceResult` for `uri`:
 * a string is text, bytes are a base64 blob, a `{ contents: [...] }` result passes
 * through, and anything else is JSON (`application/json` unless the resource says otherwise).
 */
export function shapeResourceResult(
  value: unknown,
  uri: string,
  mimeType: string | undefined,
): ReadResourceResult {
  if (typeof value === "string")
    return { contents: [{ uri, mimeType: mimeType ?? "text/plain", text: value }] };
  if (value instanceof Uint8Array) {
    const blob = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64");
    return { contents: [{ uri, mimeType: mimeType ?? "application/octet-stream", blob }] };
  }
  if (isReadResourceResult(value)) return value;
  const text = JSON.stringify(value, jsonReplacer) ?? "null";
  return { contents: [{ uri, mimeType: mimeType ?? "application/json", text }] };
}

function isReadResourceResult(value: unknown): value is ReadResourceResult {
  return (
    isObject(value) &&
    Array.isArray(value.contents) &&
    value.contents.every((c) => isObject(c) && typeof c.uri === "string")
  );
}
