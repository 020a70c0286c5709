/**
 * The contract's budgets on binary content (DESIGN.md "Budgets": "A declared resource whose
 * content is larger than its budget allows (binary content included, counted by its size) is
 * never answered whole: it is served as byte chunks, or refused with an error that says how to
 * read it in chunks") and the binary slices of "Ephemeral resources" (`read_resource` offsets and
 * limits count bytes of binary content, base64, at most 512 KiB), written from its text alone.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import {
  Budget,
  createTestClient,
  Ephemeral,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Resource,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const KIB = 1024;
/** Bytes that are not all alike, so a slice read at the wrong offset shows. */
const bytesOf = (size: number, seed = 0) =>
  new Uint8Array(size).map((_, i) => (i * 31 + seed + (i >> 9)) % 256);
const BIG = bytesOf(700 * KIB);
const SMALL = bytesOf(300);

@McpService()
class BlobService {
  @Resource("blob://big", { mimeType: "application/octet-stream" })
  big() {
    return BIG;
  }

  @Resource("blob://small", { mimeType: "application/octet-stream" })
  small() {
    return SMALL;
  }

  /** A budget of its own, far below what 64 KiB of base64 costs. */
  @Resource("blob://own-budget", { mimeType: "application/octet-stream" })
  @Budget(500)
  ownBudget() {
    return BIG.subarray(0, 64 * KIB);
  }

  @Resource("blob://files/{name}", { mimeType: "application/octet-stream" })
  file({ name }: { name: string }) {
    return bytesOf(96 * KIB, name.length);
  }

  @Tool({ description: "Stores bytes as an ephemeral resource", input: { size: z.number().int() } })
  async store({ size }: { size: number }, ctx: ToolContext) {
    const stored = await ctx.resources.create(bytesOf(size, 7), { mimeType: "application/octet-stream" });
    return { uri: stored.uri };
  }

  @Tool({ description: "A binary result, always spilled", input: { size: z.number().int() } })
  @Ephemeral({ when: "always", mimeType: "application/octet-stream" })
  spill({ size }: { size: number }) {
    return bytesOf(size, 3);
  }
}

@McpModule({ services: [BlobService] })
class BlobModule {}

/** The base64 blob of a read's first content, if it has one. */
const blobOf = (read: unknown) => (read as { contents: Array<{ blob?: string }> }).contents[0]?.blob;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const fromB64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

interface Slice {
  bytes?: string;
  offset?: number;
  total?: number;
  totalBytes?: number;
  nextOffset?: number | null;
  hasMore?: boolean;
  version?: unknown;
}

/** A refusal of a whole read that says how to read it in chunks (read_resource with an offset). */
function expectChunkHint(error: unknown) {
  const text = JSON.stringify({
    message: (error as Error).message,
    data: (error as { data?: unknown }).data,
  });
  expect(text).toMatch(/read_resource/);
  expect(text).toMatch(/offset|chunk/i);
}

/** A resources/read that is not answered whole: refused with the hint, or a blob shorter than the content. */
async function expectNotWhole(read: () => Promise<unknown>, whole: Uint8Array) {
  const answer = await read().then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  if ("error" in answer) {
    expect((answer.error as { code?: number }).code).toBe(-32602);
    expectChunkHint(answer.error);
  } else {
    const blob = blobOf(answer.result) ?? "";
    expect(blob.length).toBeLessThan(b64(whole).length);
  }
}

describe("declared binary resources over their budget", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(BlobModule, { name: "blobs", version: "1.0.0", budget: 2000 });
  });
  afterAll(() => t.close());

  const readSlice = async (args: Record<string, unknown>) => {
    const result = await t.client.callTool({ name: "read_resource", arguments: args });
    expect(result.isError, JSON.stringify(result).slice(0, 300)).toBeFalsy();
    return result as { structuredContent: Slice; content: Array<{ type: string; text?: string }> };
  };

  it("answers a binary resource within the budget whole", async () => {
    const read = await t.client.readResource({ uri: "blob://small" });
    expect(blobOf(read)).toBe(b64(SMALL));
  });

  it("never answers a binary resource over the app's budget whole (counted by its size)", async () => {
    await expectNotWhole(() => t.client.readResource({ uri: "blob://big" }), BIG);
  });

  it("holds a binary resource to a budget the client lowered for one read (frugal/maxTokens)", async () => {
    await expectNotWhole(
      () => t.client.readResource({ uri: "blob://small", _meta: { "frugal/maxTokens": 20 } }),
      SMALL,
    );
    expect(blobOf(await t.client.readResource({ uri: "blob://small" }))).toBe(b64(SMALL));
  });

  it("holds a binary resource to its own @Budget", async () => {
    await expectNotWhole(
      () => t.client.readResource({ uri: "blob://own-budget" }),
      BIG.subarray(0, 64 * KIB),
    );
  });

  it("holds a binary template instance to the budget", async () => {
    await expectNotWhole(
      () => t.client.readResource({ uri: "blob://files/report.pdf" }),
      bytesOf(96 * KIB, 10),
    );
  });

  it("serves the refused resource in byte chunks through read_resource, each at most 512 KiB", async () => {
    const parts: Uint8Array[] = [];
    let offset: number | null | undefined = 0;
    let version: unknown;
    let rounds = 0;
    while (offset !== null && offset !== undefined && rounds++ < 10) {
      const slice = await readSlice({ uri: "blob://big", offset });
      const chunk = slice.structuredContent;
      expect(chunk.offset ?? offset).toBe(offset);
      expect(chunk.total ?? chunk.totalBytes).toBe(BIG.length);
      const bytes = fromB64(chunk.bytes ?? "");
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes.length).toBeLessThanOrEqual(512 * KIB);
      // The bytes travel once: what the model reads is a line, not the base64 again.
      const text = slice.content.map((block) => block.text ?? "").join("");
      expect(text.length).toBeLessThan(300);
      expect(chunk.version).toBeDefined();
      if (version !== undefined) expect(chunk.version).toEqual(version);
      version = chunk.version;
      parts.push(bytes);
      expect(chunk.hasMore).toBe(chunk.nextOffset !== null && chunk.nextOffset !== undefined);
      offset = chunk.hasMore ? chunk.nextOffset : null;
    }
    expect(Buffer.concat(parts).equals(Buffer.from(BIG))).toBe(true);
    expect(parts.length).toBeGreaterThanOrEqual(2);
  });

  it("counts offset and limit in bytes", async () => {
    const slice = (await readSlice({ uri: "blob://big", offset: 1000, limit: 4096 })).structuredContent;
    expect(fromB64(slice.bytes ?? "")).toEqual(BIG.subarray(1000, 5096));
    expect(slice.nextOffset).toBe(5096);
    expect(slice.hasMore).toBe(true);
    const last = (await readSlice({ uri: "blob://big", offset: BIG.length - 10, limit: 4096 }))
      .structuredContent;
    expect(fromB64(last.bytes ?? "")).toEqual(BIG.subarray(BIG.length - 10));
    expect(last.hasMore).toBe(false);
  });

  it("never serves more than 512 KiB in one slice", async () => {
    const result = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: "blob://big", offset: 0, limit: 600 * KIB },
    });
    if (!result.isError) {
      const bytes = fromB64((result.structuredContent as Slice).bytes ?? "");
      expect(bytes.length).toBeLessThanOrEqual(512 * KIB);
      expect(bytes).toEqual(BIG.subarray(0, bytes.length));
    }
  });
});

describe("ephemeral binary resources, in slices of bytes", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(BlobModule, { name: "blobs", version: "1.0.0" });
  });
  afterAll(() => t.close());

  const slice = async (args: Record<string, unknown>) => {
    const result = await t.client.callTool({ name: "read_resource", arguments: args });
    expect(result.isError, JSON.stringify(result).slice(0, 300)).toBeFalsy();
    return result.structuredContent as Slice;
  };

  it("reads a stored byte resource by byte offset and limit, with total, nextOffset, hasMore and version", async () => {
    const stored = await t.client.callTool({ name: "store", arguments: { size: 10_000 } });
    const { uri } = stored.structuredContent as { uri: string };
    const all = bytesOf(10_000, 7);
    const first = await slice({ uri, offset: 100, limit: 1000 });
    expect(fromB64(first.bytes ?? "")).toEqual(all.subarray(100, 1100));
    expect(first.total ?? first.totalBytes).toBe(10_000);
    expect(first.nextOffset).toBe(1100);
    expect(first.hasMore).toBe(true);
    expect(first.version).toBeDefined();
    const rest = await slice({ uri, offset: 1100 });
    expect(fromB64(rest.bytes ?? "")).toEqual(all.subarray(1100));
    expect(rest.hasMore).toBe(false);
  });

  it("stores a spilled binary result as bytes, read back in byte slices", async () => {
    const spilled = await t.client.callTool({ name: "spill", arguments: { size: 5_000 } });
    const link = (spilled.content as Array<{ type: string; uri?: string }>).find(
      (block) => block.type === "resource_link",
    );
    expect(link?.uri).toBeDefined();
    const all = bytesOf(5_000, 3);
    const part = await slice({ uri: link?.uri, offset: 4_000, limit: 2_000 });
    expect(fromB64(part.bytes ?? "")).toEqual(all.subarray(4_000));
    expect(part.total ?? part.totalBytes).toBe(5_000);
    expect(part.hasMore).toBe(false);
  });
});

describe("a binary resource over its budget on a 2026-07-28 client over Streamable HTTP", () => {
  let app: McpApp;
  let url: string;
  beforeAll(async () => {
    app = await McpFactory.create(BlobModule, {
      name: "blobs",
      version: "1.0.0",
      budget: 2000,
      protocol: "2026-07-28",
      cursorSecret: "a long enough secret for the binary budget probes",
    });
    url = (await app.listen({ transport: "http", port: 0 })).url as string;
  });
  afterAll(() => app.close());

  it("is never answered whole, and is readable in byte chunks", async () => {
    const client = new ClientV2(
      { name: "v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new HttpV2(new URL(url)));
    try {
      await expectNotWhole(() => client.readResource({ uri: "blob://big" }), BIG);
      const result = await client.callTool({
        name: "read_resource",
        arguments: { uri: "blob://big", offset: 0, limit: 100 },
      });
      expect(fromB64((result.structuredContent as Slice).bytes ?? "")).toEqual(BIG.subarray(0, 100));
    } finally {
      await client.close();
    }
  });
});
