import { mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileByteSource } from "../../../src/pagination/file-byte-source.js";

const dir = mkdtempSync(join(tmpdir(), "frugal-file-byte-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("fileByteSource", () => {
  it("gives the size and reads a range, fewer bytes only at the end", async () => {
    const file = join(dir, "data.bin");
    const content = Buffer.from(Array.from({ length: 5000 }, (_, i) => i % 256));
    writeFileSync(file, content);
    const source = fileByteSource(file);
    expect(await source.size()).toBe(5000);
    expect(Buffer.from(await source.read(4096, 100)).equals(content.subarray(4096, 4196))).toBe(true);
    expect(Buffer.from(await source.read(4990, 100)).equals(content.subarray(4990))).toBe(true);
    expect((await source.read(6000, 10)).byteLength).toBe(0);
  });

  it("keeps its version while the file is unchanged, and changes it on a rename over it or a rewrite", async () => {
    const file = join(dir, "report.txt");
    writeFileSync(file, "first");
    const source = fileByteSource(file);
    const first = await source.version?.();
    expect(await source.version?.()).toBe(first);
    const replacement = join(dir, "report.txt.new");
    writeFileSync(replacement, "other"); // same size: only the inode tells
    renameSync(replacement, file);
    const renamed = await source.version?.();
    expect(renamed).not.toBe(first);
    writeFileSync(file, "other");
    utimesSync(file, new Date(2_000_000_000_000), new Date(2_000_000_000_000)); // a new time, same size and inode
    expect(await source.version?.()).not.toBe(renamed);
  });

  it("fails when the file is missing", async () => {
    await expect(fileByteSource(join(dir, "missing")).size()).rejects.toMatchObject({ code: "ENOENT" });
  });
});
