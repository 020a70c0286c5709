import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { createTestClient, type TestClient } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FilesModule } from "../../examples/binary-files/app.module.js";
import { FileCatalog, REMOTE_FILES } from "../../examples/binary-files/file-catalog.js";
import { type FileServer, startFileServer } from "../support/file-server.js";

type Listed = { files: Array<{ id: string; name: string; size?: number; remote: boolean }> };
type Chunk = { bytes: string; byteCount: number; totalBytes: number; hasMore: boolean; version: string };

/**
 * Reads a file through the app-only chunk tool, as a viewer does: the first chunk's
 * version goes with every later one. Checks the one-line text of each chunk.
 */
async function readWhole(t: TestClient, fileId: string): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  let offset = 0;
  let version: string | undefined;
  for (;;) {
    const args = version === undefined ? { fileId, offset } : { fileId, offset, version };
    const result = await t.callTool({ name: "read_file_bytes", arguments: args });
    const chunk = result.structuredContent as Chunk;
    version ??= chunk.version;
    expect(chunk.version).toBe(version);
    expect(chunk.byteCount).toBeLessThanOrEqual(512 * 1024);
    const where = `${chunk.byteCount} bytes at offset ${offset} of ${chunk.totalBytes}`;
    const line = chunk.hasMore
      ? `${where}; next offset ${offset + chunk.byteCount}`
      : `${where}; this is the last chunk`;
    expect(result.content).toEqual([{ type: "text", text: line }]);
    chunks.push(Buffer.from(chunk.bytes, "base64"));
    offset += chunk.byteCount;
    if (!chunk.hasMore) return chunks;
  }
}

describe("examples/binary-files", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(FilesModule);
  });
  afterAll(() => t.close());

  it("reads a 3 MB file in 512 KiB chunks through an app-only tool, byte for byte", async () => {
    const files = (await t.callTool({ name: "list_files", arguments: {} })).structuredContent as Listed;
    const file = files.files[0] as { id: string; size: number };
    const path = t.app.get(FileCatalog).pathOf(file.id) as string;
    const chunks = await readWhole(t, file.id);
    expect(Buffer.concat(chunks).equals(readFileSync(path))).toBe(true);
    expect(chunks.length).toBe(Math.ceil(file.size / (512 * 1024)));
  });

  it("never builds a path from client text", async () => {
    const result = await t.callTool({ name: "read_file_bytes", arguments: { fileId: "../../etc/passwd" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("list_files");
  });
});

describe("examples/binary-files, a remote file whose server refuses Range", () => {
  const content = Buffer.concat([Buffer.from("%PDF-1.7\n% remote report\n"), randomBytes(3 * 1024 * 1024)]);
  let files: FileServer;
  let t: TestClient;
  beforeAll(async () => {
    files = await startFileServer({ range: "refuse", content });
    t = await createTestClient(FilesModule, {
      providers: [{ provide: REMOTE_FILES, useValue: [files.url] }],
    });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it("reads it in 512 KiB chunks, byte for byte, from one download (the source is made per call)", async () => {
    const listed = (await t.callTool({ name: "list_files", arguments: {} })).structuredContent as Listed;
    const remote = listed.files.find((file) => file.remote);
    expect(remote).toMatchObject({ id: "r1", name: "report.pdf", remote: true });
    const chunks = await readWhole(t, "r1");
    expect(chunks).toHaveLength(Math.ceil(content.length / (512 * 1024)));
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
    // 501 to the first Range request, then one plain GET; every later chunk comes from the cache.
    expect(files.hits.map((hit) => hit.answer)).toEqual([501, 200]);
  });
});

describe("examples/binary-files, a remote file replaced mid-download", () => {
  const first = Buffer.concat([Buffer.from("%PDF-1.7\n% version one\n"), randomBytes(1024 * 1024)]);
  const second = Buffer.concat([Buffer.from("%PDF-1.7\n% version two\n"), randomBytes(1024 * 1024)]);
  let files: FileServer;
  let t: TestClient;
  beforeAll(async () => {
    files = await startFileServer({ range: "serve", content: first, etag: true });
    t = await createTestClient(FilesModule, {
      providers: [{ provide: REMOTE_FILES, useValue: [files.url] }],
    });
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  it("refuses the next chunk of the old version, saying to start again; starting again reads the new one whole", async () => {
    const start = await t.callTool({ name: "read_file_bytes", arguments: { fileId: "r1", offset: 0 } });
    const { version } = start.structuredContent as Chunk;
    files.content = second;
    const refused = await t.callTool({
      name: "read_file_bytes",
      arguments: { fileId: "r1", offset: 512 * 1024, version },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("Start again from offset 0 without `version`");
    expect(Buffer.concat(await readWhole(t, "r1")).equals(second)).toBe(true);
  });
});
