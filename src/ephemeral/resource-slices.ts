import type { ResourceSlice } from "../pipeline/resource-handle.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { readEntries, type StoredContent } from "./entry-reader.js";

/** Largest byte slice: the same 512 KiB cap as byte chunks. */
export const MAX_BYTE_SLICE = 512 * 1024;

/** Reads up to `count` items, lines or bytes from `offset`. */
export async function readSlice(
  storage: StoredContent,
  meta: StoredResourceMeta,
  offset: number,
  count: number,
  /** Read ahead at most this many bytes of items or lines (always at least one entry). */
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<ResourceSlice> {
  if (offset > meta.total) {
    throw new RangeError(
      `offset ${offset} is past the end (total ${meta.total}); use an offset below ${meta.total}`,
    );
  }
  const base = { uri: meta.uri, version: meta.version, kind: meta.kind, offset, total: meta.total };
  if (meta.kind === "bytes") {
    const end = Math.min(meta.total, offset + Math.min(count, MAX_BYTE_SLICE, maxBytes));
    const bytes =
      end > offset ? await storage.read(meta.id, meta.version, "content", offset, end) : new Uint8Array(0);
    return {
      ...base,
      ...position(offset, bytes.byteLength, meta.total),
      bytes: Buffer.from(bytes).toString("base64"),
    };
  }
  const entries = await readEntries(storage, meta, offset, offset + count, maxBytes);
  const rest = position(offset, entries.length, meta.total);
  if (meta.kind === "json-array") return { ...base, ...rest, items: entries.map((e) => JSON.parse(e.text)) };
  return { ...base, ...rest, lines: entries.map((e) => e.text) };
}

/** The first `n` entries (or bytes) of a slice, with its position fields recomputed. */
export function shortenSlice(slice: ResourceSlice, n: number): ResourceSlice {
  const shorter: ResourceSlice = { ...slice, ...position(slice.offset, n, slice.total) };
  if (slice.items) shorter.items = slice.items.slice(0, n);
  if (slice.lines) shorter.lines = slice.lines.slice(0, n);
  if (slice.bytes !== undefined) {
    shorter.bytes = Buffer.from(slice.bytes, "base64").subarray(0, n).toString("base64");
  }
  return shorter;
}

function position(offset: number, count: number, total: number) {
  const next = offset + count;
  return { count, nextOffset: next < total ? next : null, hasMore: next < total };
}
