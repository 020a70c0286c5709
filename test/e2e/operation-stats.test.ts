import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  Budget,
  type ByteRange,
  type ByteSource,
  byteChunkInput,
  Cached,
  CLOCK,
  createTestClient,
  Ephemeral,
  ManualClock,
  McpModule,
  McpService,
  Paginated,
  Prompt,
  RedisStorage,
  Resource,
  readByteChunk,
  STORAGE,
  type TestClient,
  Tool,
  toolError,
} from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

const ITEMS = Array.from({ length: 25 }, (_, i) => ({ id: i, title: `Item ${i}` }));
/** 3 MiB and 60 bytes: seven chunks of at most 512 KiB, about 4.2 MB of base64. */
const FILE = Buffer.alloc(3 * 1024 * 1024 + 60, 7);
/** A log with one event every 5 seconds for ten minutes, tailed by `tail_log` and `events://{source}`. */
const LOG_START = Date.UTC(2026, 10, 4, 8, 0, 0);
const LOG = Array.from({ length: 120 }, (_, i) => ({ at: new Date(LOG_START + (i + 1) * 5_000), id: i + 1 }));
const fileSource: ByteSource = {
  size: async () => FILE.length,
  read: async (offset, length) => FILE.subarray(offset, offset + length),
};

@McpService()
class StatsService {
  @Tool({ name: "list_items" })
  @Paginated(["id"], { limit: 10 })
  listItems() {
    return ITEMS;
  }

  @Tool({ name: "report", input: { site: z.string() } })
  @Cached({ ttl: 60_000 })
  @Budget(1_000)
  report({ site }: { site: string }) {
    return { site, rows: [1, 2, 3] };
  }

  @Tool({ name: "budgeted", input: { words: z.number().int() } })
  @Budget(2_000)
  budgeted({ words }: { words: number }) {
    return "word ".repeat(words);
  }

  @Tool({ name: "read_file", input: byteChunkInput(), visibility: ["app"] })
  readFile(range: ByteRange) {
    return readByteChunk(fileSource, range);
  }

  /** The same shape as a byte chunk, returned as plain JSON: its text carries the base64 already. */
  @Tool({ name: "chunk_as_json" })
  chunkAsJson() {
    return {
      bytes: FILE.subarray(0, 3000).toString("base64"),
      offset: 0,
      byteCount: 3000,
      totalBytes: 3000,
      hasMore: false,
    };
  }

  @Tool({ name: "tail_log" })
  @Paginated(["at", "id"], { limit: 5, stream: { window: 60_000 } })
  tailLog() {
    return LOG;
  }

  @Resource("events://{source}", { mimeType: "application/json" })
  @Paginated(["at", "id"], { limit: 5, stream: { window: 60_000 } })
  eventLog() {
    return LOG;
  }

  @Tool({ name: "plain" })
  plain() {
    return "héllo";
  }

  @Tool({ name: "refuses" })
  refuses() {
    return toolError("not today");
  }

  @Tool({ name: "throws" })
  throws(): string {
    throw new Error("the database is down");
  }

  @Tool({ name: "tiny_report" })
  @Ephemeral({ when: "always" })
  tinyReport() {
    return [{ ok: true }];
  }

  @Resource("config://app", { mimeType: "application/json" })
  config() {
    return { theme: "dark" };
  }

  @Resource("notes://{id}")
  note({ id }: { id: string }) {
    if (id === "missing") throw new McpError(ErrorCode.InvalidParams, `no note ${id}`);
    return `note ${id}`;
  }

  @Resource("broken://{id}", {
    list: () => {
      throw new Error("the catalogue database is down");
    },
  })
  broken({ id }: { id: string }) {
    return id;
  }

  @Prompt({ name: "greet", input: { name: z.string() } })
  greet({ name }: { name: string }) {
    return `Hello ${name}`;
  }

  @Prompt({ name: "report", input: {} })
  reportPrompt() {
    return "Summarize the report";
  }
}

@McpModule({ services: [StatsService] })
class StatsModule {}

type Text = { type: string; text?: string };
/** The measure `bytesOut` promises for text results: UTF-8 bytes of every text block. */
const textBytes = (blocks: Text[]) => blocks.reduce((n, b) => n + Buffer.byteLength(b.text ?? ""), 0);

describe("app.stats().operations", () => {
  let t: TestClient | undefined;
  const client = () => {
    if (!t) throw new Error("no client");
    return t;
  };
  const operations = () => client().app.stats().operations;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("counts calls, continuations of a cursor walk and the bytes returned", async () => {
    t = await createTestClient(StatsModule);
    let cursor: string | undefined;
    let bytes = 0;
    let calls = 0;
    do {
      const result = await t.callTool({ name: "list_items", arguments: cursor ? { cursor } : {} });
      bytes += textBytes(result.content as Text[]);
      calls++;
      cursor = (result.structuredContent as { nextCursor: string | null }).nextCursor ?? undefined;
    } while (cursor);
    expect(calls).toBe(3);
    expect(operations().list_items).toMatchObject({
      calls: 3,
      errors: 0,
      continuations: 2,
      rereads: 0,
      cacheHits: 0,
      cacheMisses: 0,
      bytesOut: bytes,
      tokensOut: 0,
    });
    const plain = await t.callTool({ name: "plain", arguments: {} });
    expect(operations().plain?.bytesOut).toBe(textBytes(plain.content as Text[]));
    expect(operations().plain?.bytesOut).toBe(6); // "héllo": é is two bytes in UTF-8
  });

  it("counts a byte chunk's base64, which travels in structuredContent, as binary data returned", async () => {
    t = await createTestClient(StatsModule);
    let offset = 0;
    let expected = 0;
    let base64 = 0;
    for (;;) {
      const result = await t.callTool({ name: "read_file", arguments: { offset } });
      const chunk = result.structuredContent as { bytes: string; byteCount: number; hasMore: boolean };
      expected += textBytes(result.content as Text[]) + chunk.bytes.length;
      base64 += chunk.bytes.length;
      offset += chunk.byteCount;
      if (!chunk.hasMore) break;
    }
    expect(operations().read_file).toMatchObject({ calls: 7, errors: 0, bytesOut: expected });
    // Six chunks of 512 KiB and one of 60 bytes, each its own base64 (padded to a multiple of 4).
    expect(base64).toBe(6 * 4 * Math.ceil((512 * 1024) / 3) + 4 * (60 / 3));
    expect(operations().read_file?.bytesOut).toBeGreaterThan(4_190_000);
    // The same fields answered as JSON text: the text carries the base64, counted once.
    const json = await t.callTool({ name: "chunk_as_json", arguments: {} });
    expect(operations().chunk_as_json?.bytesOut).toBe(textBytes(json.content as Text[]));
    // An offset past the end is an error answer: its text is what it returned.
    const past = await t.callTool({ name: "read_file", arguments: { offset: FILE.length + 1 } });
    expect(past.isError).toBe(true);
    expect(operations().read_file).toMatchObject({
      calls: 8,
      errors: 1,
      bytesOut: expected + textBytes(past.content as Text[]),
    });
  });

  it("counts a tail poll (since = a nextSince this caller was handed) as a continuation, like a cursor", async () => {
    const clock = new ManualClock(LOG_START + 10 * 60_000);
    t = await createTestClient(StatsModule, { providers: [{ provide: CLOCK, useValue: clock }] });
    type Chunk = { nextCursor: string | null; nextSince?: string; count: number };
    /** One poll: the chunks of the window after `since`, following nextCursor. */
    const poll = async (client: Client, since: string) => {
      let chunk: Chunk | undefined;
      let counted = 0;
      do {
        const args: Record<string, unknown> = chunk?.nextCursor
          ? { since, cursor: chunk.nextCursor }
          : { since };
        const result = await client.callTool({ name: "tail_log", arguments: args });
        expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
        chunk = result.structuredContent as Chunk;
        counted += chunk.count;
      } while (chunk.nextCursor);
      expect(counted).toBe(12); // a minute of the log, in chunks of 5, 5 and 2
      return chunk.nextSince as string;
    };
    const first = await poll(t.client, new Date(LOG_START).toISOString());
    expect(operations().tail_log).toMatchObject({ calls: 3, continuations: 2 });
    // Polling on from where the last chunk ended: the poll continues the walk.
    const second = await poll(t.client, first);
    expect(operations().tail_log).toMatchObject({ calls: 6, continuations: 5 });
    await poll(t.client, second);
    expect(operations().tail_log).toMatchObject({ calls: 9, continuations: 8 });
    // A since this server never handed out starts a walk; so does one handed to another caller.
    await poll(t.client, new Date(LOG_START + 30_000).toISOString());
    expect(operations().tail_log).toMatchObject({ calls: 12, continuations: 10 });
    const other = await t.connect();
    await poll(other, first);
    expect(operations().tail_log).toMatchObject({ calls: 15, continuations: 12 });
    // A malformed since is refused, and no continuation.
    const bad = await t.callTool({ name: "tail_log", arguments: { since: "soon" } });
    expect(bad.isError).toBe(true);
    expect(operations().tail_log).toMatchObject({ calls: 16, errors: 1, continuations: 12 });

    // A stream resource polled by URI: the same.
    const read = async (uri: string) =>
      JSON.parse(
        String(((await client().readResource({ uri })).contents[0] as { text: string }).text),
      ) as Chunk;
    let chunk = await read(
      `events://app?limit=20&since=${encodeURIComponent(new Date(LOG_START).toISOString())}`,
    );
    chunk = await read(`events://app?limit=20&since=${encodeURIComponent(chunk.nextSince as string)}`);
    expect(chunk.count).toBe(12);
    expect(operations()["events://{source}"]).toMatchObject({
      calls: 2,
      continuations: 1,
    });
  });

  it("reports latency percentiles in milliseconds", async () => {
    t = await createTestClient(StatsModule);
    for (let i = 0; i < 20; i++) await t.callTool({ name: "plain", arguments: {} });
    const { calls, p50Ms, p95Ms } = operations().plain ?? {};
    expect(calls).toBe(20);
    expect(p50Ms).toBeGreaterThan(0);
    expect(p95Ms).toBeGreaterThanOrEqual(p50Ms ?? 0);
    expect(p95Ms).toBeLessThan(10_000);
  });

  it("counts cache hits and misses per operation, and a hit's tokens as its miss counted them", async () => {
    t = await createTestClient(StatsModule);
    const a = await t.callTool({ name: "report", arguments: { site: "a" } });
    const again = await t.callTool({ name: "report", arguments: { site: "a" } });
    await t.callTool({ name: "report", arguments: { site: "b" } });
    expect(again).toEqual(a);
    const stats = client().app.stats();
    expect(stats.operations.report).toMatchObject({ calls: 3, cacheHits: 1, cacheMisses: 2, errors: 0 });
    expect(stats.cache).toMatchObject({ hits: 1, misses: 2 });
    // Sites "a" and "b" cost the same tokens; the budget counted the two misses only.
    const counted = stats.tokens.report;
    expect(counted?.calls).toBe(2);
    expect(stats.operations.report?.tokensOut).toBe(((counted?.tokens ?? 0) / 2) * 3);
    expect(stats.operations.report?.bytesOut).toBe(3 * textBytes(a.content as Text[]));
  });

  it("counts tokens only where a budget applies", async () => {
    t = await createTestClient(StatsModule);
    await t.callTool({ name: "budgeted", arguments: { words: 50 } });
    await t.callTool({ name: "plain", arguments: {} });
    const stats = client().app.stats();
    expect(stats.operations.budgeted?.tokensOut).toBe(stats.tokens.budgeted?.tokens);
    expect(stats.operations.budgeted?.tokensOut).toBeGreaterThan(40);
    expect(stats.operations.plain?.tokensOut).toBe(0);
  });

  it("counts isError results, thrown handlers and protocol errors as errors", async () => {
    t = await createTestClient(StatsModule);
    expect((await t.callTool({ name: "refuses", arguments: {} })).isError).toBe(true);
    expect((await t.callTool({ name: "throws", arguments: {} })).isError).toBe(true);
    await expect(t.readResource({ uri: "notes://missing" })).rejects.toThrow(/no note missing/);
    await t.readResource({ uri: "notes://1" });
    expect(operations().refuses).toMatchObject({ calls: 1, errors: 1 });
    expect(operations().throws).toMatchObject({ calls: 1, errors: 1 });
    expect(operations()["notes://{id}"]).toMatchObject({ calls: 2, errors: 1 });
  });

  it("counts re-reads of a URI by the same owner, per resource or template", async () => {
    t = await createTestClient(StatsModule);
    await t.readResource({ uri: "config://app" });
    await t.readResource({ uri: "config://app" });
    const other = await t.connect(); // another session: another owner
    await other.readResource({ uri: "config://app" });
    await t.readResource({ uri: "notes://1" });
    await t.readResource({ uri: "notes://2" });
    await t.readResource({ uri: "notes://1" });
    await other.readResource({ uri: "notes://1" });
    expect(operations()["config://app"]).toMatchObject({ calls: 3, rereads: 1 });
    expect(operations()["notes://{id}"]).toMatchObject({ calls: 4, rereads: 1 });
  });

  it("keys prompts by name (a prompt named like a tool as prompt:<name>)", async () => {
    t = await createTestClient(StatsModule);
    await t.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    await t.getPrompt({ name: "report", arguments: {} });
    expect(operations().greet).toMatchObject({ calls: 1, errors: 0 });
    expect(operations().greet?.bytesOut).toBe(Buffer.byteLength("Hello Ada"));
    expect(operations()["prompt:report"]).toMatchObject({ calls: 1 });
    expect(operations().report).toBeUndefined();
  });

  it("keys reads of spilled results by the tool that made them, and unknown stored URIs together", async () => {
    t = await createTestClient(StatsModule);
    const spilled = await t.callTool({ name: "tiny_report", arguments: {} });
    const link = (spilled.content as Array<{ type: string; uri: string }>)[0];
    expect(link?.type).toBe("resource_link");
    await t.readResource({ uri: link?.uri ?? "" });
    await t.readResource({ uri: link?.uri ?? "" });
    await expect(t.readResource({ uri: "results://nothing/here" })).rejects.toThrow();
    await expect(t.readResource({ uri: "ephemeral://no_such_tool/abc" })).rejects.toThrow();
    expect(operations()["ephemeral://tiny_report/{id}"]).toMatchObject({ calls: 2, rereads: 1, errors: 0 });
    expect(operations()["(stored resources)"]).toMatchObject({ calls: 2, errors: 2 });
    expect(operations().tiny_report).toMatchObject({ calls: 1, errors: 0 });
  });

  it("shows no operation before its first call, and keeps the existing counters", async () => {
    t = await createTestClient(StatsModule);
    const stats = client().app.stats();
    expect(stats.operations).toEqual({});
    expect(stats).toMatchObject({ sessions: 1, inFlight: 0, tokens: {}, resources: { listErrors: 0 } });
  });
});

describe("app.stats().resources.listFailures", () => {
  let t: TestClient | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("counts failed listing sources per source: a template's list and a dead storage", async () => {
    const storage = new RedisStorage({ url: "redis://127.0.0.1:1" });
    t = await createTestClient(StatsModule, {
      providers: [{ provide: STORAGE, useValue: storage }],
      readyTimeoutMs: 50,
    });
    const { resources } = await t.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["config://app"]);
    await t.listResources();
    expect(t.app.stats().resources).toEqual({
      listErrors: 4,
      listFailures: { "broken://{id}": 2, "ephemeral storage": 2 },
    });
  });
});
