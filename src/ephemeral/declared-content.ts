import { createHash } from "node:crypto";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { encodeContent } from "./content-index.js";
import type { StoredContent } from "./entry-reader.js";

/** A declared resource's content, read once, held in memory so the slice tools can read it like a stored one. */
export interface DeclaredContent {
  readonly meta: StoredResourceMeta;
  readonly content: StoredContent;
}

/**
 * Makes the content of a declared resource (static or a template instance, read through
 * its own pipeline) readable by the slice and search tools: a JSON array is read by item,
 * other JSON by line of its pretty-printed text, text by line, a blob by byte. Its
 * `version` is derived from the content, so a client walking slices sees it change when
 * the content does.
 */
export function declaredContent(uri: string, result: ReadResourceResult): DeclaredContent {
  const first = firstContent(uri, result);
  const mimeType = first.mimeType;
  const value =
    "blob" in first && typeof first.blob === "string"
      ? Buffer.from(first.blob, "base64")
      : textValue(first, mimeType);
  return declaredValue(uri, value, mimeType);
}

/** The content block of `uri` in a read result (else its first one); a RangeError when there is none. */
export function firstContent(
  uri: string,
  result: ReadResourceResult,
): ReadResourceResult["contents"][number] {
  const first = result.contents.find((c) => c.uri === uri) ?? result.contents[0];
  if (!first) throw new RangeError(`${uri} has no content to read`);
  return first;
}

/** A value read from a declared resource (the items of its pages, say), readable like a stored one. */
export function declaredValue(uri: string, value: unknown, mimeType: string | undefined): DeclaredContent {
  const encoded = encodeContent(value, mimeType);
  const version = Number.parseInt(
    createHash("sha256").update(encoded.content).digest("hex").slice(0, 12),
    16,
  );
  const meta: StoredResourceMeta = {
    id: "declared",
    uri,
    owner: null,
    creator: "server",
    name: uri,
    mimeType: encoded.mimeType,
    kind: encoded.kind,
    size: encoded.content.length,
    total: encoded.total,
    version,
    createdAt: 0,
    expiresAt: Number.POSITIVE_INFINITY,
  };
  const parts = { content: encoded.content, index: encoded.index };
  return {
    meta,
    content: { read: async (_id, _version, part, start, end) => parts[part].subarray(start, end) },
  };
}

/** JSON text is parsed (arrays are read by item, objects pretty-printed); other text stays text. */
export function textValue(content: object, mimeType: string | undefined): unknown {
  const text = "text" in content && typeof content.text === "string" ? content.text : "";
  if (mimeType === "application/json" || mimeType?.endsWith("+json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
