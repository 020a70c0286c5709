import { open } from "node:fs/promises";
import type { ByteSource } from "./byte-chunks.js";

/**
 * A file read at a position, never loaded whole. The path is the server's own choice:
 * never build it from client text.
 *
 * @example
 * ```ts
 * const chunk = await readByteChunk(fileByteSource("/srv/reports/q3.pdf"), { offset: 0, byteCount: 65536 });
 * ```
 */
export function fileByteSource(path: string): ByteSource {
  return {
    async size() {
      const handle = await open(path, "r");
      try {
        return (await handle.stat()).size;
      } finally {
        await handle.close();
      }
    },
    async read(offset, length) {
      const handle = await open(path, "r");
      try {
        const buffer = Buffer.alloc(length);
        let filled = 0;
        while (filled < length) {
          const { bytesRead } = await handle.read(buffer, filled, length - filled, offset + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return buffer.subarray(0, filled);
      } finally {
        await handle.close();
      }
    },
  };
}
