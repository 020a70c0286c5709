import { readFileSync } from "node:fs";
import { createTestClient, type TestClient } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FilesModule } from "../../examples/binary-files/app.module.js";
import { FileCatalog } from "../../examples/binary-files/file-catalog.js";

describe("examples/binary-files", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(FilesModule);
  });
  afterAll(() => t.close());

  it("reads a 3 MB file in 512 KiB chunks through an app-only tool, byte for byte", async () => {
    const files = (await t.callTool({ name: "list_files", arguments: {} })).structuredContent as {
      files: Array<{ id: string; size: number }>;
    };
    const file = files.files[0] as { id: string; size: number };
    const path = t.app.get(FileCatalog).pathOf(file.id) as string;
    const chunks: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const chunk = (await t.callTool({ name: "read_file_bytes", arguments: { fileId: file.id, offset } }))
        .structuredContent as { bytes: string; byteCount: number; totalBytes: number; hasMore: boolean };
      expect(chunk.byteCount).toBeLessThanOrEqual(512 * 1024);
      chunks.push(Buffer.from(chunk.bytes, "base64"));
      offset += chunk.byteCount;
      if (!chunk.hasMore) break;
    }
    expect(Buffer.concat(chunks).equals(readFileSync(path))).toBe(true);
    expect(chunks.length).toBe(Math.ceil(file.size / (512 * 1024)));
  });

  it("never builds a path from client text", async () => {
    const result = await t.callTool({ name: "read_file_bytes", arguments: { fileId: "../../etc/passwd" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("list_files");
  });
});
