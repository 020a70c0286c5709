import type { StoredResourceMeta } from "../storage/storage.js";
import { entryRange, type StoredContent, textPieces } from "./entry-reader.js";
import { parsePointer } from "./json-pointer.js";
import { JsonScanError, JsonScanner } from "./json-scanner.js";

/** A window of characters of one long string field, line or item text. */
export interface TextWindow {
  text: string;
  offset: number;
  /** Where the next window starts, or null when this one reaches the end. */
  nextOffset: number | null;
  totalChars: number;
}

/** Where a window is read: item `index` of a JSON array (or line `index` of text), the string at `path`. */
export interface WindowTarget {
  readonly index?: number | undefined;
  readonly path?: string | undefined;
}

/** A window that cannot be read as asked; the message says what to give instead. */
export class WindowError extends Error {}

/** Text stored with a JSON MIME type: one JSON value (not an array), stored as its text. */
export function isJsonValue(meta: StoredResourceMeta): boolean {
  return meta.kind === "text" && (meta.mimeType === "application/json" || meta.mimeType.endsWith("+json"));
}

/**
 * Reads `limit` characters from `offset` of the string at `path` (of item `index` of a
 * JSON array, or of a JSON value), or of line (item text) `index` when no path is given.
 * Storage is read in pieces and only the window is kept, so a field of any length is read
 * in bounded memory; the whole field is scanned to count `totalChars`.
 */
export async function readWindow(
  storage: StoredContent,
  meta: StoredResourceMeta,
  target: WindowTarget,
  offset: number,
  limit: number,
): Promise<TextWindow> {
  const { start, end } = await rangeOf(storage, meta, target);
  const window = new WindowCollector(offset, limit);
  const pieces = textPieces(storage, meta, start, end);
  if (target.path === undefined) for await (const piece of pieces) window.piece(piece);
  else await readField(pieces, target.path, window);
  if (offset > window.seen) {
    const what = target.path === undefined ? "this text" : `the field at ${target.path}`;
    throw new WindowError(
      `offset ${offset} is past the end of ${what} (${window.seen} characters); use an offset below ${window.seen}`,
    );
  }
  return window.result();
}

/** The byte range that holds the target: an item, a line, or the whole JSON value. */
async function rangeOf(storage: StoredContent, meta: StoredResourceMeta, target: WindowTarget) {
  if (meta.kind === "bytes")
    throw new WindowError("binary content has no text; read it by bytes with offset and limit, without path");
  const { index, path } = target;
  if (path !== undefined) parsePointer(path);
  if (meta.kind === "text" && path !== undefined) {
    if (!isJsonValue(meta))
      throw new WindowError(
        "path names a field of JSON and this resource is text; read a long line with index (its line number), offset and limit",
      );
    if (index !== undefined)
      throw new WindowError("this JSON value is not an array: leave index out, path starts at its root");
    return { start: 0, end: meta.size };
  }
  const unit = meta.kind === "json-array" ? "item" : "line";
  if (index === undefined)
    throw new WindowError(
      meta.kind === "json-array"
        ? "give index, the position of the item in the array, with path (e.g. /body)"
        : "give index, the line number (from 0), to read a window of one line",
    );
  if (index >= meta.total)
    throw new WindowError(
      `index ${index} is out of range: the resource has ${meta.total} ${unit}s (${meta.total === 0 ? "none" : `0 to ${meta.total - 1}`})`,
    );
  return entryRange(storage, meta, index);
}

/** Scans JSON pieces for the string at `path`, handing its text to `window`. */
async function readField(pieces: AsyncIterable<string>, path: string, window: WindowCollector) {
  let found: string | undefined;
  const scanner = new JsonScanner({
    value(kind, pointer) {
      if (pointer() !== path) return undefined;
      found = kind;
      return kind === "string" ? "read" : "stop";
    },
    piece: (text) => window.piece(text),
    end: () => true,
  });
  try {
    for await (const piece of pieces) {
      scanner.feed(piece);
      if (scanner.finished) break;
    }
    scanner.finish();
  } catch (error) {
    if (error instanceof JsonScanError) throw new WindowError(`cannot read ${path}: ${error.message}`);
    throw error;
  }
  if (found === undefined)
    throw new WindowError(`no field at ${path}; give the JSON Pointer of a string field, e.g. /body`);
  if (found !== "string")
    throw new WindowError(
      `${path || "the root"} is ${found === "primitive" ? "a number, boolean or null" : `an ${found}`}, not a string field; give the path of a string inside it`,
    );
}

/** Keeps the characters `[offset, offset + limit)` of text fed in pieces, and counts them all. */
class WindowCollector {
  seen = 0;
  private readonly parts: string[] = [];

  constructor(
    private readonly offset: number,
    private readonly limit: number,
  ) {}

  piece(text: string): void {
    const from = Math.max(0, this.offset - this.seen);
    const to = Math.min(text.length, this.offset + this.limit - this.seen);
    if (to > from) this.parts.push(text.slice(from, to));
    this.seen += text.length;
  }

  result(): TextWindow {
    const text = this.parts.join("");
    const next = this.offset + text.length;
    return {
      text,
      offset: this.offset,
      nextOffset: next < this.seen ? next : null,
      totalChars: this.seen,
    };
  }
}
