import { fieldOf, isObject } from "../common/guards.js";

/**
 * Bytes of content a protocol result carries (`CallToolResult`, `ReadResourceResult`,
 * `GetPromptResult`): UTF-8 bytes of text, base64 characters of binary data. It walks the
 * blocks instead of serializing the result, because it runs on every call and the
 * transport serializes the result anyway; `structuredContent` is not counted again, as
 * the text blocks repeat it, except for the one thing they do not repeat: a byte chunk's
 * base64 (`readByteChunk`), whose text block is one line.
 *
 * @example
 * ```ts
 * resultBytes({ content: [{ type: "text", text: "héllo" }] }); // 6
 * resultBytes({ content: [{ type: "text", text: "3 bytes at offset 0 of 3; this is the last chunk" }],
 *   structuredContent: { bytes: "AAEC", offset: 0, byteCount: 3, totalBytes: 3, hasMore: false } }); // 48 + 4
 * ```
 */
export function resultBytes(result: unknown): number {
  if (!isObject(result)) return 0;
  const { content, contents, messages, structuredContent } = result;
  let bytes = 0;
  if (Array.isArray(content)) for (const block of content) bytes += blockBytes(block);
  if (Array.isArray(contents)) for (const block of contents) bytes += blockBytes(block);
  if (Array.isArray(messages))
    for (const message of messages) bytes += blockBytes(fieldOf(message, "content"));
  return bytes + chunkBytes(structuredContent, content);
}

/**
 * The base64 characters of a byte chunk's `bytes`, which travel in `structuredContent`
 * alone: its text block is one line (`524288 bytes at offset 0 of 3145788; …`), so the
 * blocks hold none of its data (issue 23: 521 bytes counted for 4.2 MB). A chunk-shaped
 * object answered as JSON text (a copy, `{ ...chunk }`) carries its base64 in the text
 * already, counted there: it is not counted twice. Only a chunk-shaped object pays for the
 * search, and its one line is short.
 */
function chunkBytes(structured: unknown, content: unknown): number {
  if (!isObject(structured)) return 0;
  const { bytes, offset, byteCount, totalBytes } = structured;
  if (typeof bytes !== "string" || bytes === "") return 0;
  if (typeof offset !== "number" || typeof byteCount !== "number" || typeof totalBytes !== "number") return 0;
  const repeated =
    Array.isArray(content) &&
    content.some((block) => typeof block?.text === "string" && block.text.includes(bytes));
  return repeated ? 0 : bytes.length;
}

function blockBytes(block: unknown): number {
  if (!isObject(block)) return 0;
  const { text, data, blob, resource, type } = block;
  if (typeof text === "string") return Buffer.byteLength(text, "utf8");
  if (typeof data === "string") return data.length; // an image or audio block, base64
  if (typeof blob === "string") return blob.length;
  if (type === "resource") return blockBytes(resource);
  // A resource link (or an unknown block): what is sent is its JSON.
  return Buffer.byteLength(JSON.stringify(block) ?? "", "utf8");
}
