/**
 * Budgets on declared binary resources: a blob is counted by its size (its base64 text), so
 * one larger than the budget allows is never answered whole by `resources/read`: it is
 * refused with `-32602` saying how to read it in chunks, and `read_resource` serves it in
 * byte chunks of up to 512 KiB (the bytes once, in `structuredContent`; one line of text).
 */
import { Cached, createTestClient, McpModule, McpService, Resource, type TestClient } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MIB = 1024 * 1024;
/** 3 MiB of bytes that are not all alike, so a chunk read at the wrong offset shows. */
const ARCHIVE = new Uint8Array(3 * MIB).map((_, i) => (i * 7 + (i >> 12)) % 256);
let archiveReads = 0;

@McpService()
class FilesService {
  @Resource("files://archive.bin", { mimeType: "application/octet-stream" })
  archive() {
    archiveReads++;
    return ARCHIVE;
  }

  @Resource("files://cached.bin", { mimeType: "application/octet-stream" })
  @Cached({ ttl: 60_000 })
  cached() {
    return ARCHIVE.subarray(0, MIB);
  }

  @Resource("files://icon.bin", { mimeType: "application/octet-stream" })
  icon() {
    return ARCHIVE.subarray(0, 600);
  }
}

@McpModule({ services: [FilesService] })
class FilesModule {}

type Chunk = {
  kind: string;
  offset: number;
  count: number;
  total: number;
  nextOffset: number | null;
  hasMore: boolean;
  bytes: string;
};

describe("a declared binary resource over the app's budget", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(FilesModule, { budget: 2000 });
  });
  afterAll(() => t.close());

  it("is refused whole by resources/read, counted by its size, with how to read it in chunks", async () => {
    const refusal = t.client.readResource({ uri: "files://archive.bin" });
    await expect(refusal).rejects.toMatchObject({
      code: -32602,
      data: { error: "OUTPUT_BUDGET_EXCEEDED", tool: "files://archive.bin", budget: 2000 },
    });
    const error = (await refusal.catch((e: unknown) => e)) as {
      message: string;
      data: { tokens: number; hint: string };
    };
    // Counted by size: about a token per byte of a 3 MiB blob, not a flat 1,000.
    expect(error.data.tokens).toBeGreaterThan(MIB);
    expect(error.data.hint).toContain('read_resource({ uri: "files://archive.bin", offset: 0 })');
    expect(error.data.hint).toContain("512 KiB");
    expect(error.message).toContain("read_resource");
  });

  it("registers read_resource for it, which serves it in byte chunks that reassemble exactly", async () => {
    const { tools } = await t.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("read_resource");
    const parts: Buffer[] = [];
    let offset: number | null = 0;
    let calls = 0;
    while (offset !== null) {
      const result = await t.client.callTool({
        name: "read_resource",
        arguments: { uri: "files://archive.bin", offset },
      });
      expect(result.isError, JSON.stringify(result.content).slice(0, 300)).toBeFalsy();
      const chunk = result.structuredContent as Chunk;
      expect(chunk).toMatchObject({ kind: "bytes", offset, total: 3 * MIB });
      expect(chunk.count).toBe(Math.min(512 * 1024, 3 * MIB - offset));
      // The bytes travel once: one line of text for the model, base64 only in structuredContent.
      const next = chunk.nextOffset;
      expect(result.content).toEqual([
        {
          type: "text",
          text: `${chunk.count} bytes at offset ${offset} of ${3 * MIB}${next === null ? "; this is the last chunk" : `; next offset ${next}`}`,
        },
      ]);
      parts.push(Buffer.from(chunk.bytes, "base64"));
      offset = next;
      calls++;
    }
    expect(calls).toBe(6);
    expect(Buffer.concat(parts).equals(Buffer.from(ARCHIVE))).toBe(true);
  });

  it("takes a smaller limit and refuses an offset past the end", async () => {
    const small = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "files://archive.bin", offset: 4096, limit: 16 },
    });
    const chunk = small.structuredContent as Chunk;
    expect([...Buffer.from(chunk.bytes, "base64")]).toEqual([...ARCHIVE.subarray(4096, 4112)]);
    expect(chunk).toMatchObject({ count: 16, nextOffset: 4112, hasMore: true });
    const past = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "files://archive.bin", offset: 3 * MIB + 1 },
    });
    expect(past.isError).toBe(true);
    expect(JSON.stringify(past.content)).toContain("past the end");
    const tooLong = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "files://archive.bin", limit: 512 * 1024 + 1 },
    });
    expect(tooLong.isError).toBe(true);
  });

  it("never lets a chunked read put the whole blob in the cache for resources/read", async () => {
    const first = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "files://cached.bin", limit: 8 },
    });
    expect((first.structuredContent as Chunk).total).toBe(MIB);
    await expect(t.client.readResource({ uri: "files://cached.bin" })).rejects.toMatchObject({
      code: -32602,
    });
    const again = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "files://cached.bin", offset: 8, limit: 8 },
    });
    expect([...Buffer.from((again.structuredContent as Chunk).bytes, "base64")]).toEqual([
      ...ARCHIVE.subarray(8, 16),
    ]);
  });

  it("still answers a blob within the budget whole, and a client may lower the budget", async () => {
    const icon = await t.client.readResource({ uri: "files://icon.bin" });
    expect(
      Buffer.from((icon.contents[0] as { blob: string }).blob, "base64").equals(
        Buffer.from(ARCHIVE.subarray(0, 600)),
      ),
    ).toBe(true);
    await expect(
      t.client.readResource({ uri: "files://icon.bin", _meta: { "frugal/maxTokens": 100 } }),
    ).rejects.toMatchObject({ code: -32602, data: { budget: 100 } });
    expect(archiveReads).toBeGreaterThan(0);
  });
});
