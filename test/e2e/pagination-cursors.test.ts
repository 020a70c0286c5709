/**
 * Compact cursors (issue 24, item 1), through the SDK's real `Client`: a walk hands out
 * cursors of at most 40 characters and a median of at most 20 o200k tokens, whose binding
 * (tool, input, key spec, principal) is in their MAC and not in their text; a cursor of
 * the format before them, or one moved to another tool, input or principal, is refused
 * with the message that says to start again.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  BpeTokenCounter,
  CLOCK,
  createTestClient,
  ManualClock,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Resource,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const IDS = Array.from({ length: 1_000 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` }));
const WORDS = ["cache", "report", "order", "intro", "model", "token", "stream", "window"];
const SLUGS = WORDS.flatMap((a) => WORDS.map((b) => `${a}-${b}-notes`.slice(0, 16).padEnd(16, "x"))).sort();
/** Keys with characters a readable cursor writes as they are (`.`) or escapes (`:`, ` `). */
const PATHS = ["a.md", "b:c", "d e", "f~g", "h/i", "j.k.l"].sort();

/** A cursor of a real server of the format before this one (a JSON payload): old clients still hold some. */
const OLDER_FORMAT =
  "AQZOV0o4Z0oCiZaGX2MZEYai36oebDXcicZxOMczhRw4-PqAfyffV3siYiI6InY1SFZYcTJHeUx3YXIzS1N2bHBCWVAiLCJhIjp7ImlkIjo1MDB9LCJlIjoxNzgwMzU4NDAwMDAwfQ";

@McpService()
class CatalogueService {
  @Tool({ description: "Items by id" })
  @Paginated("id", { limit: 1 })
  ids(_input: unknown, ctx: ToolContext) {
    const after = (ctx.page?.after?.id as number | undefined) ?? 0;
    return IDS.slice(after, after + (ctx.page?.limit ?? 1) + 1);
  }

  @Tool({ description: "The same items, another tool with the same key" })
  @Paginated("id", { limit: 1 })
  others(_input: unknown, ctx: ToolContext) {
    return this.ids(_input, ctx);
  }

  @Tool({ description: "Items of a shelf", input: { shelf: z.string() } })
  @Paginated("id", { limit: 5 })
  shelf(_input: { shelf: string }, ctx: ToolContext) {
    return this.ids(_input, ctx);
  }

  @Tool({ description: "Notes by slug" })
  @Paginated("slug", { limit: 1 })
  notes() {
    return SLUGS.map((slug) => ({ slug }));
  }

  @Resource("files://all", { mimeType: "application/json" })
  @Paginated("path", { limit: 1 })
  files() {
    return PATHS.map((path) => ({ path }));
  }
}

@McpModule({ services: [CatalogueService] })
class CatalogueModule {}

const SECRET = "compact-cursors-secret-0123456789";
const START_AGAIN = (tool: string) => `Call ${tool} again without \`cursor\` to start from the first page.`;

type Envelope = { items: Array<Record<string, unknown>>; nextCursor: string | null };

/** Follows nextCursor to the end; returns the items and every cursor handed out. */
async function walk(client: Client, name: string, args: Record<string, unknown> = {}) {
  const items: unknown[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const result = await client.callTool({ name, arguments: cursor ? { ...args, cursor } : args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const page = result.structuredContent as Envelope;
    // The model reads the cursor in the text block: the same characters.
    if (page.nextCursor)
      expect((result.content as Array<{ text: string }>)[0]?.text).toContain(page.nextCursor);
    items.push(...page.items);
    cursor = page.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return { items, cursors };
}

const counter = new BpeTokenCounter();
const medianTokens = async (cursors: string[]) => {
  const tokens = await Promise.all(cursors.map(async (c) => (await counter.count(c, 1_000)).tokens));
  return tokens.sort((a, b) => a - b)[Math.floor(tokens.length / 2)] as number;
};

describe("compact cursors", () => {
  const clock = new ManualClock(Date.UTC(2026, 5, 1));
  let t: TestClient;
  let encrypted: TestClient;
  beforeAll(async () => {
    const options = { cursorSecret: SECRET, providers: [{ provide: CLOCK, useValue: clock }] };
    t = await createTestClient(CatalogueModule, options);
    encrypted = await createTestClient(CatalogueModule, { ...options, encryptCursors: true });
  });
  afterAll(async () => {
    await t.close();
    await encrypted.close();
  });

  it("walks 1,000 integer keys with cursors of at most 40 characters and a median of at most 20 tokens", async () => {
    const { items, cursors } = await walk(t, "ids");
    expect(items).toEqual(IDS);
    expect(cursors).toHaveLength(999);
    expect(Math.max(...cursors.map((c) => c.length))).toBeLessThanOrEqual(40);
    expect(await medianTokens(cursors)).toBeLessThanOrEqual(20);
    // The key reads as it is: the cursor after item 500 ends with 500.
    expect(cursors[499]).toMatch(/^[A-Za-z0-9_-]{20}500$/);
  });

  it("walks keys of 16-character strings within 40 characters and a median of 20 tokens", async () => {
    const { items, cursors } = await walk(t, "notes");
    expect(items).toEqual(SLUGS.map((slug) => ({ slug })));
    expect(Math.max(...cursors.map((c) => c.length))).toBeLessThanOrEqual(40);
    expect(await medianTokens(cursors)).toBeLessThanOrEqual(20);
  });

  it("walks encrypted, each cursor at most 32 characters longer and not showing the key", async () => {
    const { items, cursors } = await walk(encrypted, "notes");
    expect(items).toEqual(SLUGS.map((slug) => ({ slug })));
    expect(Math.max(...cursors.map((c) => c.length))).toBeLessThanOrEqual(40 + 32);
    for (const [i, cursor] of cursors.entries()) expect(cursor).not.toContain(SLUGS[i] as string);
  });

  it("pages a resource template with cursors that are safe in its URI, escapes and all", async () => {
    const paths: string[] = [];
    let uri = "files://all";
    for (;;) {
      const read = await t.client.readResource({ uri });
      const page = JSON.parse(String((read.contents[0] as { text: string }).text)) as Envelope;
      paths.push(...page.items.map((item) => item.path as string));
      if (!page.nextCursor) break;
      expect(page.nextCursor).toMatch(/^[A-Za-z0-9._~-]+$/);
      uri = `files://all?cursor=${page.nextCursor}`;
    }
    expect(paths).toEqual(PATHS);
  });

  it("refuses a cursor of the format before this one, saying to start again", async () => {
    for (const client of [t, encrypted]) {
      const refused = await client.callTool({ name: "ids", arguments: { cursor: OLDER_FORMAT } });
      expect(refused.isError).toBe(true);
      expect((refused.content as Array<{ text: string }>)[0]?.text).toBe(
        `Invalid cursor: the cursor is from an older version of this server. ${START_AGAIN("ids")}`,
      );
    }
    await expect(t.client.readResource({ uri: `files://all?cursor=${OLDER_FORMAT}` })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        "older version of this server. Call files://all again without `cursor`",
      ),
    });
  });

  it("refuses a cursor moved to another tool with the same key, or to other arguments", async () => {
    const first = (await t.client.callTool({ name: "ids", arguments: {} })).structuredContent as Envelope;
    const shelf = (await t.client.callTool({ name: "shelf", arguments: { shelf: "a" } }))
      .structuredContent as Envelope;
    const moved = [
      ["others", { cursor: first.nextCursor }],
      ["shelf", { shelf: "a", cursor: first.nextCursor }],
      ["shelf", { shelf: "b", cursor: shelf.nextCursor }],
      ["ids", { cursor: shelf.nextCursor }],
    ] as const;
    for (const [name, args] of moved) {
      const refused = await t.client.callTool({ name, arguments: args });
      expect(refused.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect((refused.content as Array<{ text: string }>)[0]?.text).toBe(
        `Invalid cursor: the cursor was altered, or belongs to another tool, other arguments or another user. ${START_AGAIN(name)}`,
      );
    }
    // The same cursors go on where they belong, with another limit too (it is not bound).
    const onward = await t.client.callTool({
      name: "shelf",
      arguments: { shelf: "a", cursor: shelf.nextCursor, limit: 2 },
    });
    expect((onward.structuredContent as Envelope).items.map((i) => i.id)).toEqual([6, 7]);
  });
});

describe("compact cursors bound to the principal", () => {
  let app: McpApp;
  let url: URL;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await McpFactory.create(CatalogueModule, {
      name: "cursors",
      version: "1.0.0",
      cursorSecret: SECRET,
    });
    const listening = await app.listen({
      transport: "http",
      port: 0,
      authenticate: (req) => req.headers.authorization?.replace(/^Bearer /, "") || undefined,
    });
    url = new URL(listening.url as string);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });
  const as = async (principal: string) => {
    const client = new Client({ name: principal, version: "1.0.0" });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${principal}` } },
      }),
    );
    return client;
  };

  it("refuses one principal's cursor to another, and keeps it valid for its own in a new session", async () => {
    const alice = await as("alice");
    const { nextCursor } = (await alice.callTool({ name: "shelf", arguments: { shelf: "a" } }))
      .structuredContent as Envelope;
    expect(nextCursor?.length).toBeLessThanOrEqual(40);
    const bob = await as("bob");
    const refused = await bob.callTool({ name: "shelf", arguments: { shelf: "a", cursor: nextCursor } });
    expect(refused.isError).toBe(true);
    expect((refused.content as Array<{ text: string }>)[0]?.text).toBe(
      `Invalid cursor: the cursor was altered, or belongs to another tool, other arguments or another user. ${START_AGAIN("shelf")}`,
    );
    const again = await as("alice");
    const onward = await again.callTool({ name: "shelf", arguments: { shelf: "a", cursor: nextCursor } });
    expect((onward.structuredContent as Envelope).items.map((i) => i.id)).toEqual([6, 7, 8, 9, 10]);
  });
});
