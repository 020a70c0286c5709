import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ByteRange,
  byteChunkInput,
  createTestClient,
  fileByteSource,
  httpByteSource,
  McpModule,
  McpService,
  readByteChunk,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CONTENT = randomBytes(1_300_000);
let dir: string;
let path: string;
let server: Server;
let base: string;
const requests: Array<{ url?: string; range?: string }> = [];

@McpService()
class FilesService {
  @Tool({ description: "Read the PDF in chunks", input: byteChunkInput(), visibility: ["app"] })
  readPdf(range: ByteRange) {
    return readByteChunk(fileByteSource(path), range);
  }
}

@McpModule({ services: [FilesService] })
class FilesModule {}

type Chunk = { bytes: string; offset: number; byteCount: number; totalBytes: number; hasMore: boolean };

describe("byte chunks", () => {
  let t: TestClient;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "frugal-bytes-"));
    path = join(dir, "report.pdf");
    await writeFile(path, CONTENT);
    server = createServer((req, res) => {
      requests.push({ url: req.url, range: req.headers.range });
      const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
      if (req.url === "/ranged" && match) {
        const start = Number(match[1]);
        const end = Math.min(Number(match[2]), CONTENT.length - 1);
        res.writeHead(206, { "content-range": `bytes ${start}-${end}/${CONTENT.length}` });
        res.end(CONTENT.subarray(start, end + 1));
        return;
      }
      res.writeHead(200, { "content-length": CONTENT.length });
      res.end(CONTENT);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestClient(FilesModule);
  });
  afterAll(async () => {
    await t.close();
    server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a file through an app-only tool in chunks of at most 512 KiB, losing nothing", async () => {
    const { tools } = await t.client.listTools();
    const tool = tools.find((x) => x.name === "read_pdf");
    expect(tool?._meta).toEqual({ ui: { visibility: ["app"] } });
    expect(tool?.inputSchema.properties).toMatchObject({ byteCount: { maximum: 524288 } });
    const parts: Buffer[] = [];
    let offset = 0;
    let hasMore = true;
    while (hasMore) {
      const result = await t.client.callTool({ name: "read_pdf", arguments: { offset } });
      const chunk = result.structuredContent as Chunk;
      expect(chunk.byteCount).toBeLessThanOrEqual(512 * 1024);
      expect(chunk.totalBytes).toBe(CONTENT.length);
      parts.push(Buffer.from(chunk.bytes, "base64"));
      offset += chunk.byteCount;
      hasMore = chunk.hasMore;
    }
    expect(parts).toHaveLength(3);
    expect(Buffer.concat(parts).equals(CONTENT)).toBe(true);
  });

  it("refuses an oversized, fractional or negative range before reading", async () => {
    for (const args of [{ byteCount: 524289 }, { offset: 1.5 }, { offset: -1 }]) {
      const result = await t.client.callTool({ name: "read_pdf", arguments: args });
      expect(result.isError).toBe(true);
    }
    const past = await t.client.callTool({ name: "read_pdf", arguments: { offset: CONTENT.length + 1 } });
    expect(JSON.stringify(past.content)).toContain("past the end");
    const end = await t.client.callTool({ name: "read_pdf", arguments: { offset: CONTENT.length } });
    expect(end.structuredContent).toMatchObject({ byteCount: 0, hasMore: false });
  });

  it("reads an HTTP source with Range requests", async () => {
    requests.length = 0;
    const source = httpByteSource(`${base}/ranged`);
    const chunk = await readByteChunk(source, { offset: 1000, byteCount: 5000 });
    expect(Buffer.from(chunk.bytes, "base64").equals(CONTENT.subarray(1000, 6000))).toBe(true);
    expect(chunk).toMatchObject({ offset: 1000, byteCount: 5000, totalBytes: CONTENT.length, hasMore: true });
    expect(requests.every((r) => r.range !== undefined)).toBe(true);
  });

  it("falls back to one full GET when the server ignores Range", async () => {
    requests.length = 0;
    const source = httpByteSource(`${base}/plain`);
    const first = await readByteChunk(source, { offset: 0, byteCount: 10 });
    const last = await readByteChunk(source, { offset: CONTENT.length - 10, byteCount: 100 });
    expect(Buffer.from(first.bytes, "base64").equals(CONTENT.subarray(0, 10))).toBe(true);
    expect(Buffer.from(last.bytes, "base64").equals(CONTENT.subarray(-10))).toBe(true);
    expect(last.hasMore).toBe(false);
    expect(requests).toHaveLength(1);
  });
});
