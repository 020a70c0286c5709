import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type ByteSource,
  ByteSourceChangedError,
  byteChunkInput,
  MAX_BYTE_CHUNK,
  readByteChunk,
} from "../../../src/pagination/byte-chunks.js";
import { toolTextOf } from "../../../src/results/tool-text.js";

const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 256);

/** Bytes in memory whose version the test can change, counting reads. */
function memorySource(content: Uint8Array, withVersion = true) {
  const state = { version: "v1", reads: 0, changeDuringRead: false };
  const source: ByteSource = {
    size: async () => content.length,
    read: async (offset, length) => {
      state.reads++;
      if (state.changeDuringRead) state.version = "v2";
      return content.subarray(offset, offset + length);
    },
    ...(withVersion ? { version: async () => state.version } : {}),
  };
  return { source, state };
}

describe("readByteChunk", () => {
  it("reads chunks that reassemble the content, each saying where the next one starts", async () => {
    const { source } = memorySource(bytes);
    const parts: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const chunk = await readByteChunk(source, { offset, byteCount: 300 });
      parts.push(Buffer.from(chunk.bytes, "base64"));
      expect(chunk).toMatchObject({ offset, totalBytes: 1000, version: "v1" });
      if (!chunk.hasMore) {
        expect(toolTextOf(chunk)).toBe(`100 bytes at offset 900 of 1000; this is the last chunk`);
        break;
      }
      expect(toolTextOf(chunk)).toBe(`300 bytes at offset ${offset} of 1000; next offset ${offset + 300}`);
      offset += chunk.byteCount;
    }
    expect(Buffer.concat(parts).equals(Buffer.from(bytes))).toBe(true);
  });

  it("gives an empty last chunk at the end, without reading, and refuses an offset past it", async () => {
    const { source, state } = memorySource(bytes);
    const end = await readByteChunk(source, { offset: 1000, byteCount: 10 });
    expect(end).toMatchObject({ bytes: "", byteCount: 0, hasMore: false });
    expect(state.reads).toBe(0);
    await expect(readByteChunk(source, { offset: 1001, byteCount: 10 })).rejects.toThrow(
      "offset 1001 is past the end of the content (totalBytes 1000); start below it",
    );
  });

  it("refuses a chunk of another version than the client's, and a change while it is read", async () => {
    const { source, state } = memorySource(bytes);
    const first = await readByteChunk(source, { offset: 0, byteCount: 100 });
    state.version = "v2";
    const refused = readByteChunk(source, { offset: 100, byteCount: 100, version: first.version });
    await expect(refused).rejects.toBeInstanceOf(ByteSourceChangedError);
    await expect(refused).rejects.toThrow(/version v1, now v2.*Start again from offset 0 without `version`/);
    state.version = "v1";
    state.changeDuringRead = true;
    await expect(readByteChunk(source, { offset: 0, byteCount: 100 })).rejects.toThrow(
      "The content changed while the chunk at offset 0 was read (version v1, then v2)",
    );
  });

  it("uses the size as the version of a source without one", async () => {
    const { source } = memorySource(bytes, false);
    const chunk = await readByteChunk(source, { offset: 0, byteCount: 10 });
    expect(chunk.version).toBe("size:1000");
    await expect(
      readByteChunk(source, { offset: 10, byteCount: 10, version: "size:999" }),
    ).rejects.toBeInstanceOf(ByteSourceChangedError);
  });

  it("refuses bad ranges and versions before reading anything", async () => {
    const { source, state } = memorySource(bytes);
    const bad = [
      [{ offset: -1, byteCount: 10 }, "offset must be a whole number >= 0"],
      [{ offset: 0.5, byteCount: 10 }, "offset must be a whole number >= 0"],
      [{ offset: 0, byteCount: 0 }, `byteCount must be a whole number from 1 to ${MAX_BYTE_CHUNK}`],
      [{ offset: 0, byteCount: MAX_BYTE_CHUNK + 1 }, "byteCount must be a whole number"],
      [{ offset: 0, byteCount: 10, version: "" }, "version must be a string of 1 to 256 characters"],
      [{ offset: 0, byteCount: 10, version: "x".repeat(257) }, "version must be a string"],
    ] as const;
    for (const [range, message] of bad)
      await expect(readByteChunk(source, range), message).rejects.toThrow(message);
    await expect(readByteChunk(source, { offset: 0, byteCount: 20 }, 16)).rejects.toThrow("from 1 to 16");
    expect(state.reads).toBe(0);
  });
});

describe("byteChunkInput", () => {
  it("bounds the inputs a client can send, with defaults", () => {
    const schema = z.object(byteChunkInput(1024));
    expect(schema.parse({})).toEqual({ offset: 0, byteCount: 1024 });
    expect(schema.safeParse({ byteCount: 1025 }).success).toBe(false);
    expect(schema.safeParse({ offset: 1.5 }).success).toBe(false);
    expect(schema.safeParse({ version: "" }).success).toBe(false);
    expect(() => byteChunkInput(0)).toThrow(RangeError);
    expect(() => byteChunkInput(MAX_BYTE_CHUNK + 1)).toThrow(
      `maxChunk must be a whole number from 1 to ${MAX_BYTE_CHUNK}`,
    );
  });
});
