/**
 * Shared sessions (issue 28): three app instances on loopback share one Redis, sessions
 * included (`RedisSessionStore` as `SESSION_STORE`), behind a round-robin client with no
 * stickiness: one SDK 1.x `Client`, one `Mcp-Session-Id`, every HTTP request sent to the
 * next instance (the SDK v2 client in legacy mode too). Any instance serves any request
 * of the session, rebuilding it from its record when it holds no copy; DELETE ends it on
 * all three.
 *
 *   npx vitest run test/e2e/shared-sessions.test.ts
 */
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  Cached,
  McpModule,
  McpService,
  Paginated,
  RedisSessionStore,
  SESSION_STORE,
  type SessionStore,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Instances, type RoundRobinClient } from "../support/instances.js";
import { roundRobin } from "../support/round-robin.js";
import { deletePrefix, randomPrefix, redisAvailable } from "../support/services.js";

const available = await redisAvailable();
const prefix = randomPrefix("shared-sessions");

let squareRuns = 0;

@McpService()
class SharedService {
  @Tool({ description: "Numbers 0 to 22, paged" })
  @Paginated(["n"], { limit: 5, maxLimit: 10 })
  numbers() {
    return Array.from({ length: 23 }, (_, n) => ({ n }));
  }

  @Tool({ input: { n: z.number().int() } })
  @Cached({ ttl: 60_000 })
  square({ n }: { n: number }) {
    squareRuns++;
    return { square: n * n, run: squareRuns };
  }

  @Tool({ input: { text: z.string() } })
  async save({ text }: { text: string }, ctx: ToolContext) {
    return ctx.resources.create(text, { name: "note", mimeType: "text/plain" });
  }

  @Tool({ input: { uri: z.string() } })
  async peek({ uri }: { uri: string }, ctx: ToolContext) {
    const slice = await ctx.resources.read(uri);
    return { version: slice.version, lines: slice.lines };
  }

  @Tool({ input: { question: z.string() } })
  async ask({ question }: { question: string }, ctx: ToolContext) {
    const answer = await ctx.elicit({
      message: question,
      requestedSchema: { type: "object", properties: { reply: { type: "string" } }, required: ["reply"] },
    });
    return { action: answer.action, reply: answer.content?.reply };
  }

  @Tool({ description: "Logs at info and at error" })
  async chatty(_input: unknown, ctx: ToolContext) {
    await ctx.log.info("info line");
    await ctx.log.error("error line");
    return { session: ctx.sessionId };
  }
}

@McpModule({ services: [SharedService] })
class SharedModule {}

type Structured<T> = { structuredContent?: T; isError?: boolean; content?: unknown };
const ok = <T>(result: unknown): T => {
  const r = result as Structured<T>;
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as T;
};

/** A raw `tools/list` on instance `i` with the session's headers: its HTTP status. */
async function statusOn(instances: Instances, i: number, sessionId: string, bearer: string): Promise<number> {
  const response = await fetch(instances.url(i), {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      authorization: `Bearer ${bearer}`,
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  await response.body?.cancel();
  return response.status;
}

describe.skipIf(!available)("one session over three instances sharing Redis, round robin", () => {
  let instances: Instances;
  let alice: RoundRobinClient;

  beforeAll(async () => {
    instances = await Instances.start(SharedModule, {
      count: 3,
      prefix,
      sharedSessions: true,
      appOptions: { ephemeral: { tools: true } },
    });
    alice = await instances.connect("alice");
  });

  afterAll(async () => {
    await instances?.close();
    await deletePrefix(prefix);
  });

  it("serves every request of one session on whichever instance it lands", async () => {
    const client = alice.next();
    // initialize, then a full page walk: each request goes to the next instance.
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = ok<{ items: Array<{ n: number }>; nextCursor: string | null }>(
        await client.callTool({ name: "numbers", arguments: cursor ? { cursor } : {} }),
      );
      seen.push(...page.items.map((item) => item.n));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, n) => n));

    // A cache hit on another instance.
    const first = ok<{ run: number }>(await client.callTool({ name: "square", arguments: { n: 7 } }));
    const second = ok<{ run: number }>(await client.callTool({ name: "square", arguments: { n: 7 } }));
    expect(second.run).toBe(first.run);

    // A stored result created on one instance, read on the next.
    const created = ok<{ uri: string }>(await client.callTool({ name: "save", arguments: { text: "a\nb" } }));
    const read = ok<{ lines: string[] }>(
      await client.callTool({ name: "peek", arguments: { uri: created.uri } }),
    );
    expect(read.lines).toEqual(["a", "b"]);

    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("numbers");

    // Every instance served POSTs of this one session (no stickiness anywhere).
    for (let i = 0; i < instances.count; i++) expect(instances.requests(i).POST ?? 0).toBeGreaterThan(2);
    const sessionIds = new Set(
      await Promise.all(
        [0, 1, 2].map(async () =>
          ok<{ session: string }>(await client.callTool({ name: "chatty", arguments: {} })),
        ),
      ),
    );
    expect(new Set([...sessionIds].map((s) => s.session)).size).toBe(1);
  });

  it("keeps the log level the client set, on every instance", async () => {
    const client = alice.next();
    const levels: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      levels.push(n.params.level);
    });
    await client.setLoggingLevel("error");
    for (let i = 0; i < instances.count; i++) await client.callTool({ name: "chatty", arguments: {} });
    expect(levels).toEqual(["error", "error", "error"]);
  });

  it("gets the client's answer to ctx.elicit whichever instance the answer lands on", async () => {
    const carol = await instances.connect("carol", { elicitation: { form: {} } });
    const client = carol.next();
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      return { action: "accept", content: { reply: `re: ${request.params.message}` } };
    });
    // Each answer is the next request after the call's: it lands on another instance than the call.
    for (const question of ["one", "two", "three", "four"]) {
      const answered = ok<{ action: string; reply: string }>(
        await client.callTool({ name: "ask", arguments: { question } }),
      );
      expect(answered).toEqual({ action: "accept", reply: `re: ${question}` });
    }
  });

  it("keeps answers apart when two instances ask one session at once", async () => {
    const dave = await instances.connect("dave", { elicitation: { form: {} } });
    const client = dave.next();
    const ids: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      ids.push(String(extra.requestId));
      return { action: "accept", content: { reply: `re: ${request.params.message}` } };
    });
    const questions = Array.from({ length: 6 }, (_, i) => `q${i}`);
    const answers = await Promise.all(
      questions.map(async (question) =>
        ok<{ reply: string }>(await client.callTool({ name: "ask", arguments: { question } })),
      ),
    );
    expect(answers.map((a) => a.reply)).toEqual(questions.map((q) => `re: ${q}`));
    // Each instance numbers its requests from 0: the ids carry the instance, so none repeats.
    expect(new Set(ids).size).toBe(questions.length);
    expect(new Set(ids.map((id) => id.split("~")[0])).size).toBe(instances.count);
  });

  it("serves the SDK v2 client in legacy mode the same way", async () => {
    const balancer = roundRobin([0, 1, 2].map((i) => instances.url(i)));
    const client = new ClientV2(
      { name: "v2-legacy", version: "1.0.0" },
      { versionNegotiation: { mode: "legacy" }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", async (request) => ({
      action: "accept" as const,
      content: { reply: `v2: ${request.params.message}` },
    }));
    const transport = new HttpV2(new URL(instances.url(0)), {
      fetch: balancer.fetch,
      requestInit: { headers: { authorization: "Bearer token-frank" } },
    });
    await client.connect(transport);
    try {
      const page = (await client.callTool({ name: "numbers", arguments: {} })).structuredContent as {
        nextCursor: string;
      };
      const next = await client.callTool({ name: "numbers", arguments: { cursor: page.nextCursor } });
      expect(next.isError).toBeFalsy();
      for (const question of ["a", "b", "c"]) {
        const answered = await client.callTool({ name: "ask", arguments: { question } });
        expect(answered.structuredContent).toEqual({ action: "accept", reply: `v2: ${question}` });
      }
      expect(new Set(balancer.routed.filter((r) => r.method === "POST").map((r) => r.instance)).size).toBe(3);
      const sessionIds = new Set(balancer.routed.map((r) => r.sessionId).filter(Boolean));
      expect(sessionIds.size).toBe(1);
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  it("refuses the session to another principal on every instance", async () => {
    const sessionId = (alice.next().transport as StreamableHTTPClientTransport).sessionId as string;
    for (let i = 0; i < instances.count; i++)
      expect(await statusOn(instances, i, sessionId, "token-mallory")).toBe(404);
    expect(await statusOn(instances, 0, sessionId, alice.bearer)).toBe(200);
  });

  it("ends the session on all three instances with one DELETE", async () => {
    const copies = () => [0, 1, 2].reduce((sum, i) => sum + instances.app(i).stats().sessions, 0);
    const before = copies();
    const bob = await instances.connect("bob");
    const client = bob.next();
    await client.listTools();
    const transport = client.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId as string;
    for (let i = 0; i < instances.count; i++)
      expect(await statusOn(instances, i, sessionId, bob.bearer)).toBe(200);
    // Each instance holds a copy of the session now.
    expect(copies()).toBe(before + 3);
    await transport.terminateSession();
    // Every instance closes its copy at once (the one holding the GET stream too), before any request.
    await expect.poll(copies, { timeout: 5000 }).toBe(before);
    for (let i = 0; i < instances.count; i++)
      expect(await statusOn(instances, i, sessionId, bob.bearer)).toBe(404);
    const store = instances.app(1).get(SESSION_STORE) as SessionStore;
    expect(await store.get(sessionId, { maxSessions: 1, idleTimeoutMs: 60_000 })).toBeUndefined();
  });
});

describe.skipIf(!available)("maxSessions and idle expiry across instances", () => {
  const capped = randomPrefix("shared-sessions-cap");
  let instances: Instances;
  const open: RoundRobinClient[] = [];

  beforeAll(async () => {
    instances = await Instances.start(SharedModule, {
      count: 3,
      prefix: capped,
      sharedSessions: true,
      httpOptions: { maxSessions: 2, sessionIdleTimeoutMs: 1500 },
    });
  });

  afterAll(async () => {
    await instances?.close();
    await deletePrefix(capped);
  });

  it("holds maxSessions for the three instances together, and frees a place on DELETE", async () => {
    const first = await instances.connect("p1");
    const second = await instances.connect("p2");
    await expect(instances.connect("p3")).rejects.toThrow(/Too many sessions: 2 are open/);
    await (first.next().transport as StreamableHTTPClientTransport).terminateSession();
    const third = await instances.connect("p3");
    await third.next().listTools();
    open.push(second, third);
  });

  it("ends a session idle on every instance, wherever it was last used", async () => {
    const store = new RedisSessionStore({ prefix: `${capped}sessions:` }) as SessionStore;
    await store.ready?.();
    try {
      expect(await store.count()).toBe(2);
      // The clients go away without DELETE (their GET streams close): no request comes any more.
      await Promise.all(open.map((client) => client.close()));
      expect(await store.count()).toBe(2);
      await expect.poll(() => store.count(), { timeout: 5000, interval: 100 }).toBe(0);
    } finally {
      await store.close?.();
    }
  });
});
