/**
 * Bytes of content a protocol result carries (`CallToolResult`, `ReadResourceResult`,
 * `GetPromptResult`): UTF-8 bytes of text, base64 characters of binary data. It walks the
 * blocks instead of serializing the result, because it runs on every call and the
 * transport serializes the result anyway; `structuredContent` is not counted again, as
 * the text blocks repeat it.
 *
 * @example
 * ```ts
 * resultBytes({ content: [{ type: "text", text: "héllo" }] }); // 6
 * ```
 */
export function resultBytes(result: unknown): number {
  if (typeof result !== "object" || result === null) return 0;
  const { content, contents, messages } = result as {
    content?: unknown;
    contents?: unknown;
    messages?: unknown;
  };
  let bytes = 0;
  if (Array.isArray(content)) for (const block of content) bytes += blockBytes(block);
  if (Array.isArray(contents)) for (const block of contents) bytes += blockBytes(block);
  if (Array.isArray(messages))
    for (const message of messages) bytes += blockBytes((message as { content?: unknown } | null)?.content);
  return bytes;
}

function blockBytes(block: unknown): number {
  if (typeof block !== "object" || block === null) return 0;
  const { text, data, blob, resource, type } = block as Record<string, unknown>;
  if (typeof text === "string") return Buffer.byteLength(text, "utf8");
  if (typeof data === "string") return data.length; // an image or audio block, base64
  if (typeof blob === "string") return blob.length;
  if (type === "resource") return blockBytes(resource);
  // A resource link (or an unknown block): what is sent is its JSON.
  return Buffer.byteLength(JSON.stringify(block) ?? "", "utf8");
}
