/**
 * Lean answers beyond pages of rows: under `text: "compact"`, a flat object reads as
 * `key=value` lines when they count fewer tokens than its JSON; a stream chunk's text leaves out what its items (or
 * `nextSince`) already say; `search_resource` reads as a page (its matches as items, the
 * rest on one line); a spill answer's summary leaves out the URI its link carries and the
 * instant of expiry. `structuredContent` keeps everything; `text: "json"` keeps JSON text.
 * End to end through the SDK client.
 */
import {
  BpeTokenCounter,
  CLOCK,
  Ephemeral,
  ManualClock,
  McpModule,
  McpService,
  Paginated,
  readObjectLines,
  readTable,
  TOKEN_COUNTER,
  type TokenCounter,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { textOf } from "../support/lean-text.js";

const bpe = new BpeTokenCounter();
const tokensOf = async (text: string) => (await bpe.count(text, Number.MAX_SAFE_INTEGER)).tokens;

const ISSUE = { title: "Crash in log tailing on Windows", state: "open", labels: ["bug", "performance"] };
/** Values a naive `key=value` text would garble. */
const TRICKY = {
  "a=b": "k=v",
  text: "line\nbreak",
  quote: 'say "hi"',
  look: "123",
  empty: "",
  nothing: null,
  tags: ["x\ty", 1, true, null],
  when: new Date(Date.UTC(2026, 0, 2)),
};
const START = Date.UTC(2026, 10, 1, 12, 0, 0);
const MINUTE = 60_000;
const LINES = Array.from({ length: 30 }, (_, i) => ({
  seq: i,
  at: new Date(START + i * 10_000),
  level: i === 12 ? "ERROR" : "INFO",
  message: `request ${i} served`,
}));
const clock = new ManualClock(START + 10 * MINUTE);
const BODY = Array.from({ length: 8000 }, (_, i) =>
  i === 5000 ? "2026-11-02 FATAL worker 7 died: out of memory" : `${i} trace line ${i * 31}`,
).join("\n");

@McpService()
class LeanObjectsService {
  @Tool({ input: { id: z.number().int().min(1) }, text: "compact" })
  issue() {
    return ISSUE;
  }

  @Tool()
  issueAuto() {
    return ISSUE;
  }

  @Tool({ text: "json" })
  issueJson() {
    return ISSUE;
  }

  @Tool({ text: "compact" })
  tricky() {
    return TRICKY;
  }

  @Tool({ text: "compact" })
  nested() {
    return { open: 3, newest: { id: 1, title: "x" } };
  }

  @Tool()
  @Paginated(["at", "seq"], { limit: 50, fields: ["seq", "at", "message"], stream: { window: 5 * MINUTE } })
  logs(_input: unknown, ctx: ToolContext) {
    void ctx;
    return LINES;
  }

  @Tool()
  @Paginated(["at", "seq"], {
    limit: 50,
    stream: { window: 5 * MINUTE },
    line: (item: (typeof LINES)[number]) => `${item.at.toISOString()} ${item.level} ${item.message}`,
  })
  logLines() {
    return LINES;
  }

  @Tool()
  @Ephemeral({ mimeType: "application/json", ttl: 3_600_000 })
  crashReport() {
    return { id: 2, body: BODY };
  }
}

@McpModule({ services: [LeanObjectsService] })
class LeanObjectsModule {}

type Chunk = {
  items: unknown[];
  since: unknown;
  until: unknown;
  first: unknown;
  last: unknown;
  nextSince?: unknown;
};

describe("lean answers: objects, stream chunks, searches and spills", () => {
  let t: TestClient;
  const call = async (name: string, args: Record<string, unknown> = {}, client = t) => {
    const result = await client.client.callTool({ name, arguments: args });
    expect(result.isError, textOf(result)).toBeFalsy();
    return result;
  };
  beforeAll(async () => {
    t = await createTestClient(LeanObjectsModule, { providers: [{ provide: CLOCK, useValue: clock }] });
  });
  afterAll(() => t.close());

  it("answers a flat object as key=value lines, fewer tokens than its JSON; structuredContent keeps it", async () => {
    const result = await call("issue", { id: 7 });
    expect(result.structuredContent).toEqual(ISSUE);
    const text = textOf(result);
    expect(text).toBe('title=Crash in log tailing on Windows\nstate=open\nlabels=["bug","performance"]');
    expect(await tokensOf(text)).toBeLessThan(await tokensOf(JSON.stringify(ISSUE)));
    expect(readObjectLines(text)).toEqual(ISSUE);
  });

  it('keeps an object\'s JSON text under the default text: "auto"; the app\'s text: "compact" writes its lines', async () => {
    // The MCP specification suggests structured content's JSON as text: objects keep it unless asked.
    expect(textOf(await call("issue_auto"))).toBe(JSON.stringify(ISSUE));
    const app = await createTestClient(LeanObjectsModule, { text: "compact" });
    try {
      const text = textOf(await call("issue_auto", {}, app));
      expect(readObjectLines(text)).toEqual(ISSUE);
      expect(text).not.toBe(JSON.stringify(ISSUE));
    } finally {
      await app.close();
    }
  });

  it("refuses an unknown text format, naming the three", async () => {
    await expect(createTestClient(LeanObjectsModule, { text: "lines" as never })).rejects.toThrow(
      /"auto", "json", "compact"|auto.*json.*compact/,
    );
  });

  it("reads every value back: delimiters in keys and values, line breaks, quotes, look-alikes, dates", async () => {
    const result = await call("tricky");
    const text = textOf(result);
    expect(text.split("\n")).toHaveLength(Object.keys(TRICKY).length);
    expect(readObjectLines(text)).toEqual(result.structuredContent);
    expect(text).toContain('"a=b"=k=v\ntext="line\\nbreak"\n');
  });

  it('keeps JSON for an object that is not flat, and with text: "json" on the tool or the app', async () => {
    const nested = await call("nested");
    expect(textOf(nested)).toBe(JSON.stringify(nested.structuredContent));
    expect(textOf(await call("issue_json"))).toBe(JSON.stringify(ISSUE));
    const app = await createTestClient(LeanObjectsModule, { text: "json" });
    try {
      expect(textOf(await call("issue_auto", {}, app))).toBe(JSON.stringify(ISSUE));
      // The built-in tools follow the app: a search answers its JSON.
      const blocks = ((await call("crash_report", {}, app)).content ?? []) as Array<{
        type: string;
        uri?: string;
      }>;
      const uri = blocks.find((block) => block.type === "resource_link")?.uri ?? "";
      const found = await call("search_resource", { uri, pattern: "FATAL", limit: 1 }, app);
      expect(textOf(found)).toBe(JSON.stringify(found.structuredContent));
    } finally {
      await app.close();
    }
  });

  it("keeps JSON when the app's counter says the lines cost no less", async () => {
    const equalsAreDear: TokenCounter = {
      count: (text) => ({ tokens: text.length + 100 * (text.split("=").length - 1), exact: true }),
    };
    const app = await createTestClient(LeanObjectsModule, {
      providers: [{ provide: TOKEN_COUNTER, useValue: equalsAreDear }],
    });
    try {
      expect(textOf(await call("issue", { id: 7 }, app))).toBe(JSON.stringify(ISSUE));
    } finally {
      await app.close();
    }
  });

  it("refuses bad input to a tool whose answer is object lines", async () => {
    const bad = await t.client.callTool({ name: "issue", arguments: { id: 0 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/id/);
  });

  it("leaves a chunk's first and last out of its text when the items show them, and until when nextSince says it", async () => {
    const since = new Date(START).toISOString();
    const result = await call("log_lines", { since });
    const chunk = result.structuredContent as Chunk;
    // structuredContent keeps the whole envelope.
    expect(chunk).toMatchObject({
      since,
      until: new Date(START + 5 * MINUTE).toISOString(),
      first: new Date(START + 10_000).toISOString(),
      last: new Date(START + 290_000).toISOString(),
      nextSince: new Date(START + 5 * MINUTE).toISOString(),
    });
    const [lines, line] = textOf(result).split("\n\n");
    expect(lines?.split("\n")[0]).toBe(`${new Date(START + 10_000).toISOString()} INFO request 1 served`);
    expect(line).toBe(`since=${since} nextSince=${chunk.nextSince}`);

    // A table of items that carry the key's first field: the same; a chunk with more keeps until.
    const page = await call("logs", { since, limit: 3 });
    const envelope = readTable(textOf(page)).envelope;
    expect(Object.keys(envelope)).toEqual(["nextCursor", "hasMore", "since", "until"]);
    // A selection without the key's first field keeps first and last: nothing else says them.
    const blind = await call("logs", { since, fields: ["message"] });
    expect(readTable(textOf(blind)).envelope).toMatchObject({
      first: (blind.structuredContent as Chunk).first,
      last: (blind.structuredContent as Chunk).last,
    });
    expect(readTable(textOf(blind)).envelope).not.toHaveProperty("until");
  });

  it("answers a spill with the link and a summary that leaves out the URI and the instant of expiry", async () => {
    const result = await call("crash_report");
    const blocks = (result.content ?? []) as Array<{ type: string; uri?: string }>;
    const link = { uri: blocks.find((block) => block.type === "resource_link")?.uri ?? "" };
    const text = textOf(result);
    expect(text).toMatch(/^Stored for 1 h: \d+\.\d KiB, one JSON value\. Find text with search_resource/);
    expect(text).not.toContain(link.uri);
    const { spilled } = result.structuredContent as { spilled: { uri: string; expiresAt: string } };
    expect(spilled.uri).toBe(link.uri);
    expect(Date.parse(spilled.expiresAt)).toBeGreaterThan(0);
  });

  it("answers search_resource as a page: matches as items, then the fields that say something", async () => {
    const blocks = ((await call("crash_report")).content ?? []) as Array<{ type: string; uri?: string }>;
    const uri = blocks.find((block) => block.type === "resource_link")?.uri ?? "";
    const found = await call("search_resource", { uri, pattern: "FATAL", limit: 1 });
    const structured = found.structuredContent as {
      matches: Array<{ path: string; offset: number; text: string }>;
      count: number;
      nextOffset: number | null;
      hasMore: boolean;
    };
    expect(structured).toMatchObject({ count: 1, nextOffset: null, hasMore: false });
    const text = textOf(found);
    const { items, envelope } = readTable(text);
    expect(items).toEqual(structured.matches);
    // Empty fields (nextOffset: null, hasMore: false) and the count the items show are left out.
    expect(envelope).not.toHaveProperty("hasMore");
    expect(envelope).not.toHaveProperty("nextOffset");
    expect(envelope).not.toHaveProperty("count");
    expect(await tokensOf(text)).toBeLessThan(await tokensOf(JSON.stringify(structured)));
    // A search without a match reads as its (empty) items and the fields that say something.
    const none = await call("search_resource", { uri, pattern: "NO-SUCH-TEXT" });
    expect(textOf(none).startsWith("[]\n\n")).toBe(true);
    // Bad input is refused with a message the model can act on.
    const bad = await t.client.callTool({
      name: "search_resource",
      arguments: { uri, pattern: "(", regex: true },
    });
    expect(bad.isError).toBe(true);
  });
});
