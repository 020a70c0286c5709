import { open } from "node:fs/promises";
import type { ByteSource } from "./byte-chunks.js";

/**
 * A file read at a position, never loaded whole. The path is the server's own choice:
 * never build it from client text.
 *
 * Its `version` is the file's inode, size and modification time (in nanoseconds): a file
 * replaced by a rename (a new inode) or rewritten (a new size or time) is another version.
 * A rewrite in place to the same size within one tick of the file system's clock keeps the
 * version; replace files by renaming a new one over them.
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
    async version() {
      const handle = await open(path, "r");
      try {
        const { ino, size, mtimeNs } = await handle.stat({ bigint: true });
        return `${ino.toString(36)}-${size.toString(36)}-${mtimeNs.toString(36)}`;
      } finally {
        await handle.close();
      }
    },
  };
}
