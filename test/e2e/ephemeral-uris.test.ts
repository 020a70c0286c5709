import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CLOCK,
  createTestClient,
  Ephemeral,
  FileStorage,
  ManualClock,
  McpModule,
  McpService,
  RedisStorage,
  Resource,
  STORAGE,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { deletePrefix, randomPrefix, redisAvailable } from "../support/services.js";

// Issue 11, point 9: handler-chosen URIs, the 24-hour default lifetime, quotas sized for
// 100 MB results, and quota errors that name the setting that raises them.

const HOUR = 60 * 60 * 1000;
/** 100 MiB of text, 1,048,576 lines of 100 bytes, built in one `repeat` (no loop, no copies). */
const LINE = `${"x".repeat(94)} line\n`;
const BIG_LINES = 1024 * 1024;

@McpService()
class ResultsService {
  @Resource("docs://readme")
  readme() {
    return "read me";
  }

  @Resource("docs://pages/{page}")
  page({ page }: { page: string }) {
    return `page ${page}`;
  }

  @Tool({
    input: {
      uri: z.string().optional(),
      label: z.string().default("mine"),
      scope: z.enum(["owner", "global"]).optional(),
    },
  })
  async save(
    { uri, label, scope }: { uri?: string; label: string; scope?: "owner" | "global" },
    ctx: ToolContext,
  ) {
    const rows = Array.from({ length: 3 }, (_, i) => ({ i, label }));
    return ctx.resources.create(rows, {
      ...(uri === undefined ? {} : { uri }),
      ...(scope === undefined ? {} : { scope }),
      name: `saved by ${label}`,
    });
  }

  @Tool({ input: { uri: z.string() } })
  async remove({ uri }: { uri: string }, ctx: ToolContext) {
    return { deleted: await ctx.resources.delete(uri) };
  }

  @Tool({ input: { bytes: z.number().int() } })
  async blob({ bytes }: { bytes: number }, ctx: ToolContext) {
    return ctx.resources.create(new Uint8Array(bytes), { name: "blob" });
  }

  /** A 100 MiB text result, spilled by `@Ephemeral` with every setting at its default. */
  @Tool()
  @Ephemeral()
  hugeLog() {
    return LINE.repeat(BIG_LINES);
  }
}

@McpModule({ services: [ResultsService] })
class ResultsModule {}

interface Info {
  uri: string;
  name: string;
  version: number;
  expiresAt: string;
}

async function save(client: Client, args: Record<string, unknown>): Promise<Info> {
  const result = await client.callTool({ name: "save", arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as unknown as Info;
}

async function refusal(client: Client, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name: "save", arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as Array<{ text: string }>)[0]?.text ?? "";
}

async function readRows(client: Client, uri: string): Promise<Array<{ i: number; label: string }>> {
  const read = await client.readResource({ uri });
  expect(read.contents[0]?.uri).toBe(uri);
  return JSON.parse((read.contents[0] as { text: string }).text);
}

async function listed(client: Client): Promise<Array<{ uri: string; name: string }>> {
  return (await client.listResources()).resources;
}

describe("ctx.resources.create at a URI the handler chose", () => {
  let t: TestClient;
  beforeEach(async () => {
    t = await createTestClient(ResultsModule);
  });
  afterEach(() => t.close());

  it("lists it for its owner only and reads it with resources/read and read_resource", async () => {
    const made = await save(t.client, { uri: "results://search/abc123" });
    expect(made).toMatchObject({ uri: "results://search/abc123", name: "saved by mine", version: 1 });
    expect((await listed(t.client)).filter((r) => r.uri === made.uri)).toEqual([
      expect.objectContaining({ uri: made.uri, name: "saved by mine" }),
    ]);
    expect(await readRows(t.client, made.uri)).toEqual([
      { i: 0, label: "mine" },
      { i: 1, label: "mine" },
      { i: 2, label: "mine" },
    ]);
    const slice = await t.client.callTool({
      name: "read_resource",
      arguments: { uri: made.uri, offset: 2, limit: 1 },
    });
    expect(slice.structuredContent).toMatchObject({ items: [{ i: 2, label: "mine" }], total: 3 });

    const other = await t.connect();
    expect((await listed(other)).map((r) => r.uri)).not.toContain(made.uri);
    await expect(other.readResource({ uri: made.uri })).rejects.toMatchObject({
      code: -32002,
      data: { uri: made.uri },
    });
    const stolen = await other.callTool({ name: "read_resource", arguments: { uri: made.uri } });
    expect(stolen.isError).toBe(true);
    expect(JSON.stringify(stolen.content)).not.toContain("mine");
  });

  it("gives another owner its own resource at the same URI: neither sees nor overwrites the other", async () => {
    const uri = "output://pdf/7.pdf";
    const other = await t.connect();
    await save(t.client, { uri, label: "ann" });
    await save(other, { uri, label: "bob" });
    expect((await readRows(t.client, uri))[0]?.label).toBe("ann");
    expect((await readRows(other, uri))[0]?.label).toBe("bob");
    expect((await listed(t.client)).filter((r) => r.uri === uri).map((r) => r.name)).toEqual([
      "saved by ann",
    ]);
    expect((await listed(other)).filter((r) => r.uri === uri).map((r) => r.name)).toEqual(["saved by bob"]);

    // Creating again at a URI you hold replaces your own resource, version up; the other stays.
    const again = await save(t.client, { uri, label: "ann2" });
    expect(again.version).toBe(2);
    expect((await readRows(t.client, uri))[0]?.label).toBe("ann2");
    expect((await readRows(other, uri))[0]?.label).toBe("bob");

    // A third owner has nothing there, and deleting there touches nobody else's.
    const third = await t.connect();
    await expect(third.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    const remove = (client: Client) => client.callTool({ name: "remove", arguments: { uri } });
    expect((await remove(third)).structuredContent).toEqual({ deleted: false });
    expect((await remove(t.client)).structuredContent).toEqual({ deleted: true });
    await expect(t.client.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    expect((await readRows(other, uri))[0]?.label).toBe("bob");
  });

  it("shares a global URI, refuses it to another creator, and lets an owner keep its own there", async () => {
    const uri = "results://shared/report";
    const [bob, cid] = [await t.connect(), await t.connect()];
    await save(t.client, { uri, label: "ann", scope: "global" });
    expect((await readRows(bob, uri))[0]?.label).toBe("ann");
    expect(await refusal(bob, { uri, label: "bob", scope: "global" })).toContain(
      "another owner's global resource is there",
    );
    expect((await readRows(cid, uri))[0]?.label).toBe("ann");
    // Bob's own resource at that URI is Bob's alone; everyone else still reads Ann's.
    await save(bob, { uri, label: "bob" });
    expect((await readRows(bob, uri))[0]?.label).toBe("bob");
    expect((await listed(bob)).filter((r) => r.uri === uri).map((r) => r.name)).toEqual(["saved by bob"]);
    expect((await readRows(cid, uri))[0]?.label).toBe("ann");
    // The creator of a global resource may replace it.
    expect((await save(t.client, { uri, label: "ann2", scope: "global" })).version).toBe(2);
    expect((await readRows(cid, uri))[0]?.label).toBe("ann2");
  });

  it("refuses a URI that a declared resource or template serves", async () => {
    for (const uri of ["docs://readme", "docs://pages/7"]) {
      const text = await refusal(t.client, { uri });
      expect(text).toContain(`Cannot create a resource at "${uri}"`);
      expect(text).toContain("a declared resource or resource template serves that URI");
    }
    // The declared resources still answer as before.
    const page = await t.client.readResource({ uri: "docs://pages/7" });
    expect((page.contents[0] as { text: string }).text).toBe("page 7");
  });

  it("refuses relative, malformed and reserved URIs, saying what is wrong", async () => {
    const cases: Array<[string, string]> = [
      ["search/abc123", "is not an absolute URI"],
      ["/results/abc", "is not an absolute URI"],
      ["", "must be a non-empty string"],
      ["results:", "has nothing after its scheme"],
      ["results://search/a b", "holds characters a URI may not"],
      ["results://search/%zz", "holds characters a URI may not"],
      ["results://[oops/x", "is not a well-formed URI"],
      ["results://search/abc#top", "has a #fragment"],
      [`results://${"a".repeat(2100)}`, "is longer than 2048 characters"],
      ["ephemeral://save/AAAAAAAAAAAAAAAAAAAAAA", "is in the ephemeral:// scheme"],
    ];
    for (const [uri, reason] of cases) {
      const text = await refusal(t.client, { uri });
      expect(text, uri).toContain("Cannot create a resource at");
      expect(text, uri).toContain(reason);
    }
    expect((await listed(t.client)).filter((r) => !r.uri.startsWith("docs://"))).toEqual([]);
  });
});

describe("default lifetime", () => {
  it("keeps a resource 24 hours by default: readable at 23 h 59 m, -32002 at 24 h + 1 ms", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const t = await createTestClient(ResultsModule, { providers: [{ provide: CLOCK, useValue: clock }] });
    try {
      const generated = await save(t.client, {});
      const chosen = await save(t.client, { uri: "results://day/1" });
      expect(generated.uri).toMatch(/^ephemeral:\/\/save\//);
      for (const made of [generated, chosen]) {
        expect(made.expiresAt).toBe(new Date(Date.UTC(2026, 0, 1) + 24 * HOUR).toISOString());
      }
      clock.advance(23 * HOUR + 59 * 60_000);
      expect(await readRows(t.client, generated.uri)).toHaveLength(3);
      expect(await readRows(t.client, chosen.uri)).toHaveLength(3);
      clock.advance(60_000 + 1);
      for (const made of [generated, chosen]) {
        await expect(t.client.readResource({ uri: made.uri })).rejects.toMatchObject({
          code: -32002,
          data: { uri: made.uri },
        });
      }
      expect((await listed(t.client)).map((r) => r.uri)).toEqual(["docs://readme"]);
    } finally {
      await t.close();
    }
  });
});

describe("quota errors", () => {
  const blob = (client: Client, bytes: number) => client.callTool({ name: "blob", arguments: { bytes } });

  it("name ephemeral.maxBytesPerOwner and its value when one owner is over", async () => {
    const t = await createTestClient(ResultsModule, { ephemeral: { maxBytesPerOwner: 3 * 1024 * 1024 } });
    try {
      expect((await blob(t.client, 2 * 1024 * 1024)).isError).toBeFalsy();
      const refused = await blob(t.client, 2 * 1024 * 1024);
      expect(refused.isError).toBe(true);
      const text = JSON.stringify(refused.content);
      expect(text).toContain("quota of 3145728 bytes (3 MiB)");
      expect(text).toContain("ephemeral.maxBytesPerOwner setting raised (now 3145728)");
      expect(text).not.toContain("ephemeral://");
    } finally {
      await t.close();
    }
  });

  it("name ephemeral.maxTotalBytes and its value when all owners together are over", async () => {
    const t = await createTestClient(ResultsModule, { ephemeral: { maxTotalBytes: 3_000_000 } });
    try {
      expect((await blob(t.client, 2_000_000)).isError).toBeFalsy();
      // Its own resources never make room for a writer (another session's would be evicted,
      // oldest of the largest holder first): nothing can make room for this one.
      const refused = await blob(t.client, 1_500_000);
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain(
        "ephemeral.maxTotalBytes setting raised (now 3000000)",
      );
    } finally {
      await t.close();
    }
  });
});

// ---- a 100 MB result with every setting at its default ---------------------------------

/** Spills `huge_log` and reads its last line back in a slice; returns the time the call took. */
async function spillHundredMegabytes(client: Client): Promise<number> {
  const started = performance.now();
  const result = await client.callTool({ name: "huge_log", arguments: {} });
  const elapsed = performance.now() - started;
  expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
  const [link, summary] = result.content as [{ type: string; uri: string }, { text: string }];
  expect(link.type).toBe("resource_link");
  expect(summary.text).toContain(`${BIG_LINES} lines of text`);
  expect(result.structuredContent).toMatchObject({ spilled: { size: LINE.length * BIG_LINES } });
  const last = await client.callTool({
    name: "read_resource",
    arguments: { uri: link.uri, offset: BIG_LINES - 1, limit: 1 },
  });
  expect(last.structuredContent).toMatchObject({ lines: [LINE.slice(0, -1)], hasMore: false });
  return elapsed;
}

const PREFIX = randomPrefix("ephemeral-uris");
const redisUp = await redisAvailable();

describe("a 100 MB result spills with default settings", () => {
  const root = mkdtempSync(join(tmpdir(), "frugal-ephemeral-uris-"));
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    if (redisUp) await deletePrefix(PREFIX);
  });

  it("on FileStorage", async () => {
    const t = await createTestClient(ResultsModule, {
      providers: [{ provide: STORAGE, useValue: new FileStorage({ dir: join(root, "files") }) }],
    });
    try {
      const elapsed = await spillHundredMegabytes(t.client);
      console.info(`100 MiB spilled to FileStorage in ${Math.round(elapsed)} ms`);
      expect(elapsed).toBeLessThan(15_000);
    } finally {
      await t.close();
    }
  });

  it.skipIf(!redisUp)("on RedisStorage", async () => {
    const storage = new RedisStorage({ prefix: PREFIX });
    const t = await createTestClient(ResultsModule, { providers: [{ provide: STORAGE, useValue: storage }] });
    try {
      const elapsed = await spillHundredMegabytes(t.client);
      console.info(`100 MiB spilled to RedisStorage in ${Math.round(elapsed)} ms`);
      expect(elapsed).toBeLessThan(15_000);
    } finally {
      await t.close();
      await storage.close();
    }
  });
});
