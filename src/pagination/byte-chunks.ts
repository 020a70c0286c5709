import { z } from "zod";
import { withToolText } from "../results/tool-text.js";

/** Largest byte chunk, as MCP Apps' PDF server does: 512 KiB. */
export const MAX_BYTE_CHUNK = 512 * 1024;

/** Longest `version` a client may pass back: an ETag or a digest fits many times over. */
const MAX_VERSION_LENGTH = 256;

/** Something that can be read in byte ranges: a file, an HTTP resource, a blob in storage. */
export interface ByteSource {
  /** Total size in bytes. */
  size(): Promise<number>;
  /** Up to `length` bytes starting at `offset` (fewer only at the end). */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * A tag of the content's current version: the same for the same content, another one
   * once it changed (an ETag; a file's size, modification time and inode). Asked before
   * and after each chunk is read. Without it, the size stands in (`size:<bytes>`), which
   * only notices a change of size.
   */
  version?(): Promise<string | undefined>;
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
  /**
   * The version of the content the chunk was read from. Pass the first chunk's with every
   * later read (`version` input): a chunk of another version is then refused
   * (`ByteSourceChangedError`) instead of being reassembled with the others.
   */
  version: string;
}

/**
 * The content changed between two chunks of one download (or while a chunk was read): the
 * chunks would not fit together. Its message tells the client to start again from offset 0
 * without `version`; a tool that lets it through answers it as an `isError` result.
 */
export class ByteSourceChangedError extends Error {
  override readonly name = "ByteSourceChangedError";
}

/**
 * The inputs of a byte-chunk tool: bounded integers, so a client can never ask for a
 * 2 GB chunk or a fractional offset, and the optional `version` of the first chunk.
 *
 * @example
 * ```ts
 * @Tool({ input: { ...byteChunkInput() }, visibility: ["app"] })
 * readPdf(range: ByteRange) { return readByteChunk(fileByteSource(this.path), range); }
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
      // The schema's maximum and default say the rest.
      .describe("Bytes to read."),
    version: z
      .string()
      .min(1)
      .max(MAX_VERSION_LENGTH)
      .optional()
      .describe(
        "The first chunk's `version`, with every later chunk: a file that changed is refused, not mixed.",
      ),
  };
}

/** A byte range request, with the version it must come from when the client gave one. */
export interface ByteRange {
  offset: number;
  byteCount: number;
  /** The `version` of the chunks already read; another version is refused. */
  version?: string | undefined;
}

/**
 * Reads one chunk from a ranged source. An offset at the end gives an empty last chunk;
 * past the end it is an error that says where the content ends.
 *
 * Every chunk carries the content's `version`. With `range.version` (the first chunk's,
 * passed back by the client), a source now at another version is refused with a
 * `ByteSourceChangedError` that says to start again: a file replaced mid-download never
 * reassembles silently corrupt. The version is also asked after the read, so a change
 * while the chunk is read is refused too.
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
  const expected = range.version;
  if (
    expected !== undefined &&
    (typeof expected !== "string" || expected === "" || expected.length > MAX_VERSION_LENGTH)
  ) {
    throw new RangeError(
      `version must be a string of 1 to ${MAX_VERSION_LENGTH} characters (the chunk's \`version\`)`,
    );
  }
  // The version first: the size and the bytes are then read while it holds, which the
  // second look after the read confirms.
  const before = await source.version?.();
  const totalBytes = await source.size();
  const version = before ?? `size:${totalBytes}`;
  if (expected !== undefined && expected !== version) {
    throw new ByteSourceChangedError(
      `The content changed since the chunk you continue from was read (version ${expected}, now ${version}), so the chunk at offset ${range.offset} would not fit with it. Start again from offset 0 without \`version\`, then pass the new version with every later chunk.`,
    );
  }
  if (range.offset > totalBytes) {
    throw new RangeError(
      `offset ${range.offset} is past the end of the content (totalBytes ${totalBytes}); start below it`,
    );
  }
  const length = Math.min(range.byteCount, totalBytes - range.offset);
  const bytes = length === 0 ? new Uint8Array(0) : await source.read(range.offset, length);
  const after = source.version ? await source.version() : before;
  if (after !== before) {
    throw new ByteSourceChangedError(
      `The content changed while the chunk at offset ${range.offset} was read (version ${before}, then ${after}). Start again from offset 0 without \`version\`.`,
    );
  }
  const chunk: ByteChunk = {
    bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64"),
    offset: range.offset,
    byteCount: bytes.byteLength,
    totalBytes,
    hasMore: range.offset + bytes.byteLength < totalBytes,
    version,
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
