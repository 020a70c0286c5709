import { StringDecoder } from "node:string_decoder";
import { itemAt } from "../common/guards.js";
import type { ResourceStorage, StoredResourceMeta } from "../storage/storage.js";

/** What reading slices needs of a storage: byte ranges of one part of one version. */
export type StoredContent = Pick<ResourceStorage, "read">;

import { decodeOffsets, INDEX_ENTRY_BYTES, ITEM_SEPARATOR } from "./content-index.js";

/** One item (its JSON text) or one line, with its position. */
export interface Entry {
  readonly position: number;
  readonly text: string;
}

/** Index entries `[from, to]`: where each of entries `[from, to)` starts, and where the next would. */
async function readOffsets(storage: StoredContent, meta: StoredResourceMeta, from: number, to: number) {
  const bytes = await storage.read(
    meta.id,
    meta.version,
    "index",
    from * INDEX_ENTRY_BYTES,
    (to + 1) * INDEX_ENTRY_BYTES,
  );
  return decodeOffsets(bytes);
}

/** The bytes of the first `count` entries that `offsets` (read from position `from`) bound: one content read. */
async function chunkAt(
  storage: StoredContent,
  meta: StoredResourceMeta,
  offsets: Float64Array,
  count: number,
) {
  const base = itemAt(offsets, 0);
  const trailer = meta.kind === "json-array" ? ITEM_SEPARATOR.length : 1;
  const last = Math.min(itemAt(offsets, count) - trailer, meta.size);
  const bytes = Buffer.from(await storage.read(meta.id, meta.version, "content", base, last));
  return {
    /** The text of entry `i` of the chunk. */
    textAt: (i: number) => {
      const start = itemAt(offsets, i) - base;
      const stop = itemAt(offsets, i + 1) - trailer - base;
      return bytes.toString("utf8", start, Math.min(stop, bytes.length));
    },
  };
}

/** The first `count` entries that `offsets` (read from position `from`) bound: one content read. */
async function entriesAt(
  storage: StoredContent,
  meta: StoredResourceMeta,
  from: number,
  offsets: Float64Array,
  count: number,
): Promise<Entry[]> {
  const chunk = await chunkAt(storage, meta, offsets, count);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) entries.push({ position: from + i, text: chunk.textAt(i) });
  return entries;
}

/**
 * Reads items or lines `[from, to)` of a stored version with two range reads: the index
 * entries that bound them, then exactly their bytes. Cost depends on the slice, never on
 * where it sits in the resource.
 */
export async function readEntries(
  storage: StoredContent,
  meta: StoredResourceMeta,
  from: number,
  to: number,
  maxBytes = Number.POSITIVE_INFINITY,
): Promise<Entry[]> {
  const end = Math.min(to, meta.total);
  if (from >= end) return [];
  const offsets = await readOffsets(storage, meta, from, end);
  return entriesAt(storage, meta, from, offsets, countWithin(offsets, end - from, maxBytes));
}

/** How many of the `count` entries that `offsets` bound fit in `maxBytes` (at least one). */
function countWithin(offsets: Float64Array, count: number, maxBytes: number): number {
  let fit = 1;
  while (fit < count && itemAt(offsets, fit + 1) - itemAt(offsets, 0) <= maxBytes) fit++;
  return fit;
}

/**
 * Walks every entry from `from` on, in chunks bounded by count and bytes (two range reads
 * a chunk), so a search over a 100 MB resource holds at most one chunk in memory. Each
 * entry's text is decoded only when it is reached: a chunk's thousands of strings would
 * outlive a few young-generation collections, be promoted, and pile up as old garbage
 * (a scan of 100 MB grew the heap by over 100 MB that way); one at a time, they die young.
 */
export async function* walkEntries(
  storage: StoredContent,
  meta: StoredResourceMeta,
  from: number,
  chunkEntries = 4096,
  chunkBytes = 1024 * 1024,
): AsyncGenerator<Entry> {
  let start = from;
  while (start < meta.total) {
    const end = Math.min(start + chunkEntries, meta.total);
    const offsets = await readOffsets(storage, meta, start, end);
    const count = countWithin(offsets, end - start, chunkBytes);
    const chunk = await chunkAt(storage, meta, offsets, count);
    for (let i = 0; i < count; i++) yield { position: start + i, text: chunk.textAt(i) };
    start += count;
  }
}

/** The byte range `[start, end)` of item or line `position` in the stored content. */
export async function entryRange(
  storage: StoredContent,
  meta: StoredResourceMeta,
  position: number,
): Promise<{ start: number; end: number }> {
  const offsets = await readOffsets(storage, meta, position, position + 1);
  const trailer = meta.kind === "json-array" ? ITEM_SEPARATOR.length : 1;
  const start = itemAt(offsets, 0);
  return { start, end: Math.min(itemAt(offsets, 1) - trailer, meta.size) };
}

/**
 * The text of bytes `[start, end)` decoded in pieces of about `pieceBytes` (a character
 * cut between two reads is kept whole): a long line or a large JSON value is read
 * holding one piece at a time.
 */
export async function* textPieces(
  storage: StoredContent,
  meta: StoredResourceMeta,
  start: number,
  end: number,
  pieceBytes = 256 * 1024,
): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  for (let at = start; at < end; at += pieceBytes) {
    const bytes = await storage.read(meta.id, meta.version, "content", at, Math.min(end, at + pieceBytes));
    const text = decoder.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (text !== "") yield text;
  }
  const rest = decoder.end();
  if (rest !== "") yield rest;
}
