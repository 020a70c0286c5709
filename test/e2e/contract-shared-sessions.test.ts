/**
 * The contract's "Running on several instances" for sessions, written from its text alone:
 * two apps sharing a RedisSessionStore and a RedisEventBus serve one 2025-11-25 session round
 * robin (no sticky routing): initialize on one, tools/call on the other; a client's answer to
 * `elicit` reaches the waiting call wherever it runs; `maxSessions` holds across instances;
 * DELETE ends the session everywhere. On the default registrar and on `protocol: "2026-07-28"`.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  EVENT_BUS,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  RedisEventBus,
  RedisSessionStore,
  SESSION_STORE,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

@McpService()
class WhereService {
  @Tool({ description: "Its session" })
  session(_input: unknown, ctx: ToolContext) {
    return String(ctx.sessionId);
  }

  @Tool({ description: "Asks a name" })
  async greet(_input: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    });
    return `hello ${String(answer.content?.name)}`;
  }
}

const textOf = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? "") as string;

const apps: McpApp[] = [];
afterAll(() => Promise.allSettled(apps.map((app) => app.close())));

async function instances(modern: boolean, maxSessions?: number): Promise<[string, string]> {
  const prefix = `probe-shared:${randomUUID()}:`;
  const urls: string[] = [];
  for (let i = 0; i < 2; i++) {
    @McpModule({
      services: [WhereService],
      providers: [
        { provide: SESSION_STORE, useValue: new RedisSessionStore({ url: REDIS_URL, prefix }) },
        { provide: EVENT_BUS, useValue: new RedisEventBus({ url: REDIS_URL, channel: `${prefix}events` }) },
      ],
    })
    class SharedModule {}
    const app = await McpFactory.create(SharedModule, {
      name: "shared",
      version: "1.0.0",
      cursorSecret: "a long enough secret shared by both instances",
      ...(modern ? { protocol: "2026-07-28" as const } : {}),
    });
    apps.push(app);
    const { url } = await app.listen({ transport: "http", port: 0, ...(maxSessions ? { maxSessions } : {}) });
    urls.push(url as string);
  }
  return urls as [string, string];
}

/** A fetch that sends each request to the next instance in turn; records which method went where. */
function roundRobin(urls: [string, string]) {
  let next = 0;
  const log: Array<{ to: number; method: string; body: string }> = [];
  const fetcher = (_input: string | URL | Request, init?: RequestInit) => {
    const to = next++ % 2;
    const body = typeof init?.body === "string" ? init.body : "";
    log.push({ to, method: init?.method ?? "GET", body });
    return fetch(urls[to] as string, init);
  };
  return { fetcher, log };
}

describe.each([
  ["default", false],
  ["2026-07-28", true],
] as const)("one session served round robin by two instances (%s registrar)", (_label, modern) => {
  let urls: [string, string];
  beforeAll(async () => {
    urls = await instances(modern);
  });

  it("initializes on one instance and calls a tool on the other", async () => {
    const { fetcher, log } = roundRobin(urls);
    const transport = new StreamableHTTPClientTransport(new URL(urls[0]), { fetch: fetcher });
    const client = new Client({ name: "rr", version: "1.0.0" });
    await client.connect(transport);
    try {
      const sessionId = transport.sessionId;
      expect(sessionId).toBeTruthy();
      for (let i = 0; i < 4; i++) {
        expect(textOf(await client.callTool({ name: "session", arguments: {} }))).toBe(sessionId);
      }
      const initialize = log.find((entry) => entry.body.includes('"initialize"'));
      const calls = log.filter((entry) => entry.body.includes('"tools/call"'));
      expect(new Set(calls.map((entry) => entry.to))).toEqual(new Set([0, 1]));
      expect(calls.some((entry) => entry.to !== initialize?.to)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("brings a client's answer to elicit to the waiting call on the other instance", async () => {
    const { fetcher, log } = roundRobin(urls);
    const transport = new StreamableHTTPClientTransport(new URL(urls[0]), { fetch: fetcher });
    const client = new Client({ name: "rr", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "Ada" },
    }));
    await client.connect(transport);
    try {
      for (let i = 0; i < 2; i++) {
        expect(textOf(await client.callTool({ name: "greet", arguments: {} }))).toBe("hello Ada");
      }
      const answers = log.filter((entry) => entry.body.includes('"action":"accept"'));
      const calls = log.filter((entry) => entry.body.includes('"tools/call"'));
      // Some answer went to another instance than the call it answered.
      expect(answers.length).toBe(2);
      expect(new Set([...answers, ...calls].map((entry) => entry.to))).toEqual(new Set([0, 1]));
    } finally {
      await client.close();
    }
  });

  it("ends the session everywhere on DELETE", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(urls[0]));
    const client = new Client({ name: "rr", version: "1.0.0" });
    await client.connect(transport);
    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    await client.close();
    const response = await fetch(urls[1], {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list", params: {} }),
    });
    expect(response.status).toBe(404);
  });

  it("holds maxSessions across instances", async () => {
    const [a, b] = await instances(modern, 1);
    const first = new Client({ name: "first", version: "1.0.0" });
    await first.connect(new StreamableHTTPClientTransport(new URL(a)));
    try {
      const second = new Client({ name: "second", version: "1.0.0" });
      const refused = await second.connect(new StreamableHTTPClientTransport(new URL(b))).then(
        () => "connected",
        (error: Error) => error.message,
      );
      expect(refused).toMatch(/503|session/i);
      await second.close();
    } finally {
      await first.close();
    }
  });
});
