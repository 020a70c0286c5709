import { itemAt } from "../common/guards.js";
import type { ContentKind } from "../storage/storage.js";

/** Separator between the items of a stored JSON array. */
export const ITEM_SEPARATOR = ",\n";
/** Bytes per index entry (a float64 byte offset). */
export const INDEX_ENTRY_BYTES = 8;

/** Content ready to store: its bytes, its offset index, and what it holds. */
export interface EncodedContent {
  readonly kind: ContentKind;
  readonly content: Buffer;
  readonly index: Buffer;
  /** Items, lines or bytes. */
  readonly total: number;
  readonly mimeType: string;
}

/**
 * Serializes a result for storage and builds its index in the same pass: the byte offset
 * where each item (JSON arrays) or line (text) starts, plus one entry past the end. Bytes
 * need no index. Objects are stored as pretty-printed JSON text, read by line.
 */
export function encodeContent(value: unknown, mimeType?: string): EncodedContent {
  if (value instanceof Uint8Array) {
    const content = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    return {
      kind: "bytes",
      content,
      index: Buffer.alloc(0),
      total: content.length,
      mimeType: mimeType ?? "application/octet-stream",
    };
  }
  if (Array.isArray(value)) return encodeJsonArray(value, mimeType ?? "application/json");
  const text = typeof value === "string" ? value : (JSON.stringify(value, replacer, 2) ?? "null");
  return encodeText(text, mimeType ?? (typeof value === "string" ? "text/plain" : "application/json"));
}

function encodeJsonArray(items: readonly unknown[], mimeType: string): EncodedContent {
  const parts: Buffer[] = [Buffer.from("[\n")];
  const offsets = new Float64Array(items.length + 1);
  let position = 2;
  // A for loop, not forEach: a hole is stored as null (as JSON.stringify does), never skipped.
  for (let i = 0; i < items.length; i++) {
    offsets[i] = position;
    const json = Buffer.from(JSON.stringify(items[i], replacer) ?? "null");
    parts.push(json, Buffer.from(i < items.length - 1 ? ITEM_SEPARATOR : "\n]"));
    position += json.length + ITEM_SEPARATOR.length;
  }
  // One entry past the last item, as if another followed: item i ends at offsets[i + 1] - separator.
  offsets[items.length] = position;
  if (items.length === 0) parts.push(Buffer.from("]"));
  return {
    kind: "json-array",
    content: Buffer.concat(parts),
    index: Buffer.from(offsets.buffer),
    total: items.length,
    mimeType,
  };
}

function encodeText(text: string, mimeType: string): EncodedContent {
  const content = Buffer.from(text);
  const starts: number[] = [0];
  for (let at = content.indexOf(10); at !== -1; at = content.indexOf(10, at + 1)) starts.push(at + 1);
  return indexedText(content, starts, mimeType);
}

/**
 * Text content with its line index, from the byte offsets where a newline starts a line
 * (`[0, after each \n]`). Shared by the one-go and the yielding encoders.
 */
export function indexedText(content: Buffer, starts: number[], mimeType: string): EncodedContent {
  // A final newline ends the last line; it does not start an empty one.
  const endsWithNewline = content.length > 0 && content[content.length - 1] === 10;
  if (endsWithNewline) starts.pop();
  const total = content.length === 0 ? 0 : starts.length;
  const offsets = new Float64Array(total + 1);
  for (let i = 0; i < total; i++) offsets[i] = itemAt(starts, i);
  offsets[total] = endsWithNewline ? content.length : content.length + 1;
  return { kind: "text", content, index: Buffer.from(offsets.buffer), total, mimeType };
}

/** Reads index entries from bytes read out of storage. */
export function decodeOffsets(bytes: Uint8Array): Float64Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float64Array(copy.buffer);
}

/** Bigints survive as strings, like everywhere else in the framework. */
function replacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
