import { z } from "zod";
import { withToolText } from "../results/tool-text.js";

/** Largest byte chunk, as MCP Apps' PDF server does: 512 KiB. */
export const MAX_BYTE_CHUNK = 512 * 1024;

/** Something that can be read in byte ranges: a file, an HTTP resource, a blob in storage. */
export interface ByteSource {
  /** Total size in bytes. */
  size(): Promise<number>;
  /** Up to `length` bytes starting at `offset` (fewer only at the end). */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** One chunk of binary content, self-describing. */
export interface ByteChunk {
  /** The bytes, base64. */
  bytes: string;
  offset: number;
  /** Bytes in this chunk. */
  byteCount: number;
  totalBytes: number;
  hasMore: boolean;
}

/**
 * The inputs of a byte-chunk tool: bounded integers, so a client can never ask for a
 * 2 GB chunk or a fractional offset.
 *
 * @example
 * ```ts
 * @Tool({ input: { ...byteChunkInput() }, visibility: ["app"] })
 * readPdf({ offset, byteCount }: ByteRange) { return readByteChunk(fileByteSource(this.path), { offset, byteCount }); }
 * ```
 */
export function byteChunkInput(maxChunk = MAX_BYTE_CHUNK) {
  if (!Number.isSafeInteger(maxChunk) || maxChunk < 1 || maxChunk > MAX_BYTE_CHUNK) {
    throw new RangeError(`maxChunk must be a whole number from 1 to ${MAX_BYTE_CHUNK}`);
  }
  return {
    offset: z.number().int().min(0).default(0).describe("First byte to read."),
    byteCount: z
      .number()
      .int()
      .min(1)
      .max(maxChunk)
      .default(maxChunk)
      .describe(`Bytes to read (at most ${maxChunk}).`),
  };
}

/** A byte range request. */
export interface ByteRange {
  offset: number;
  byteCount: number;
}

/**
 * Reads one chunk from a ranged source. An offset at the end gives an empty last chunk;
 * past the end it is an error that says where the content ends.
 *
 * Returned from a tool as it is, the chunk's bytes travel once: the chunk is the
 * `structuredContent` (base64 `bytes`), and the text block is one line, what a model
 * reads (`524288 bytes at offset 0 of 3145788; next offset 524288`), never the bytes
 * again as JSON text. A copy (`{ ...chunk }`) is answered as plain JSON again.
 */
export async function readByteChunk(
  source: ByteSource,
  range: ByteRange,
  maxChunk = MAX_BYTE_CHUNK,
): Promise<ByteChunk> {
  if (!Number.isSafeInteger(range.offset) || range.offset < 0)
    throw new RangeError("offset must be a whole number >= 0");
  if (!Number.isSafeInteger(range.byteCount) || range.byteCount < 1 || range.byteCount > maxChunk) {
    throw new RangeError(`byteCount must be a whole number from 1 to ${maxChunk}`);
  }
  const totalBytes = await source.size();
  if (range.offset > totalBytes) {
    throw new RangeError(
      `offset ${range.offset} is past the end of the content (totalBytes ${totalBytes}); start below it`,
    );
  }
  const length = Math.min(range.byteCount, totalBytes - range.offset);
  const bytes = length === 0 ? new Uint8Array(0) : await source.read(range.offset, length);
  const chunk: ByteChunk = {
    bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
    offset: range.offset,
    byteCount: bytes.byteLength,
    totalBytes,
    hasMore: range.offset + bytes.byteLength < totalBytes,
  };
  return withToolText(chunk, describeByteChunk(chunk));
}

/**
 * The one line a byte chunk's tool result says in text:
 * `524288 bytes at offset 0 of 3145788; next offset 524288`, or, on the last chunk,
 * `… of 3145788; this is the last chunk`.
 */
function describeByteChunk(chunk: Omit<ByteChunk, "bytes">): string {
  const where = `${chunk.byteCount} bytes at offset ${chunk.offset} of ${chunk.totalBytes}`;
  return chunk.hasMore
    ? `${where}; next offset ${chunk.offset + chunk.byteCount}`
    : `${where}; this is the last chunk`;
}
