/**
 * Stateless Streamable HTTP on three instances sharing one Redis, behind a balancer without
 * stickiness (each request goes to the next instance): a page walk, owner-scoped cache
 * entries and stored results kept apart between two principals, and clear refusals of
 * what needs a session.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CACHE,
  Cached,
  Ephemeral,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  RedisCache,
  RedisStorage,
  STORAGE,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Authenticate } from "../../src/transports/authenticate.js";
import { deferred } from "../support/gates.js";
import { roundRobin } from "../support/round-robin.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";

const prefix = randomPrefix("stateless-http");
const available = await redisAvailable();

/** Handler runs per principal and topic, across all instances (they share this process). */
const runs = new Map<string, number>();

@McpService()
class ReportsService {
  @Tool({ description: "Numbers 1..23, paged" })
  @Paginated("n", { limit: 5 })
  numbers() {
    return Array.from({ length: 23 }, (_, i) => ({ n: i + 1 }));
  }

  @Tool({ description: "A profile of the caller, cached per owner", input: { topic: z.string() } })
  @Cached({ ttl: 60_000 })
  profile({ topic }: { topic: string }, ctx: ToolContext) {
    const key = `${ctx.auth?.clientId}:${topic}`;
    runs.set(key, (runs.get(key) ?? 0) + 1);
    return { topic, clientId: ctx.auth?.clientId, owner: ctx.owner, run: runs.get(key) };
  }

  @Tool({ description: "A private report, always stored", input: { title: z.string() } })
  @Ephemeral({ when: "always", ttl: 60_000 })
  report({ title }: { title: string }, ctx: ToolContext) {
    return Array.from({ length: 50 }, (_, i) => ({ i, title, by: ctx.auth?.clientId }));
  }

  @Tool({ description: "Who am I" })
  whoami(_input: unknown, ctx: ToolContext) {
    return { owner: ctx.owner, clientId: ctx.auth?.clientId ?? null, sessionId: ctx.sessionId };
  }

  @Tool({ description: "Ask the user to confirm" })
  async confirm(_input: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit({
      message: "Sure?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } },
    });
    return { answer: answer.action };
  }

  @Tool({ description: "Ask the model" })
  async muse(_input: unknown, ctx: ToolContext) {
    await ctx.sample("Say hi");
    return { ok: true };
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

const TOKENS: Record<string, string> = { "alice-token": "alice", "bob-token": "bob" };
const authenticate: Authenticate = (req) => TOKENS[req.headers.authorization?.replace(/^Bearer /, "") ?? ""];

describe.runIf(available)("stateless HTTP on three instances", () => {
  const apps: McpApp[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      const app = await McpFactory.create(ReportsModule, {
        name: `reports-${i}`,
        version: "1.0.0",
        // Shared by every instance, as a deployment shares it: any instance verifies any cursor.
        cursorSecret: "stateless-test-secret-of-enough-length",
        providers: [
          // A generous command timeout: on a loaded machine a timed-out read is a miss (fail-open),
          // and these tests are about what is shared, not about latency.
          {
            provide: STORAGE,
            useValue: new RedisStorage({
              url: REDIS_URL,
              prefix: `${prefix}storage:`,
              commandTimeoutMs: 5000,
            }),
          },
          {
            provide: CACHE,
            useValue: new RedisCache({ url: REDIS_URL, prefix: `${prefix}cache:`, commandTimeoutMs: 5000 }),
          },
        ],
      });
      const { url } = await app.listen({ transport: "http", port: 0, stateless: true, authenticate });
      apps.push(app);
      urls.push(url);
    }
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await deletePrefix(prefix);
  });

  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  /** A client of `token` whose every request goes to the next instance. */
  async function connect(token: string) {
    const balancer = roundRobin(urls);
    const client = new Client({ name: `client-${token}`, version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(urls[0] as string), {
        fetch: balancer.fetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return { client, routed: balancer.routed };
  }

  it("walks every page with each request on another instance, and never hands out a session id", async () => {
    const { client, routed } = await connect("alice-token");
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const result = await client.callTool({ name: "numbers", arguments: cursor ? { cursor } : {} });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const page = structured<{ items: Array<{ n: number }>; nextCursor: string | null }>(result);
      seen.push(...page.items.map((item) => item.n));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    const calls = routed.filter((r) => r.rpc === "tools/call");
    expect(calls).toHaveLength(5);
    // Consecutive pages were served by different instances.
    for (let i = 1; i < calls.length; i++) expect(calls[i]?.instance).not.toBe(calls[i - 1]?.instance);
    expect(routed.every((r) => r.sessionId === null)).toBe(true);
    // The client's optional GET stream was declined with 405, as the spec allows.
    expect(routed.filter((r) => r.method === "GET").map((r) => r.status)).toEqual([405]);
  });

  it("gives each principal its own owner, its own cache entries and its own stored results across instances", async () => {
    const alice = await connect("alice-token");
    const bob = await connect("bob-token");

    const me = structured<{ owner: string; clientId: string; sessionId: string }>(
      await alice.client.callTool({ name: "whoami", arguments: {} }),
    );
    expect(me).toMatchObject({ owner: "principal:alice", clientId: "alice" });

    // Owner-scoped cache: Alice's second call is a hit on another instance; Bob never gets her entry.
    const first = structured<{ run: number; owner: string }>(
      await alice.client.callTool({ name: "profile", arguments: { topic: "t" } }),
    );
    const again = structured<{ run: number }>(
      await alice.client.callTool({ name: "profile", arguments: { topic: "t" } }),
    );
    const bobs = structured<{ run: number; owner: string; clientId: string }>(
      await bob.client.callTool({ name: "profile", arguments: { topic: "t" } }),
    );
    expect(first).toMatchObject({ run: 1, owner: "principal:alice" });
    expect(again.run).toBe(1);
    expect(bobs).toMatchObject({ run: 1, owner: "principal:bob", clientId: "bob" });
    const profileCalls = alice.routed.filter((r) => r.rpc === "tools/call").slice(-2);
    expect(profileCalls[0]?.instance).not.toBe(profileCalls[1]?.instance);

    // Stored results: created on one instance, read on the others by Alice only.
    const created = await alice.client.callTool({ name: "report", arguments: { title: "q3" } });
    const uri =
      structured<{ spilled: { uri: string } }>(created)?.spilled?.uri ??
      (created.content as Array<{ type: string; uri?: string }>).find((c) => c.type === "resource_link")?.uri;
    expect(uri).toMatch(/^ephemeral:\/\/report\//);
    const read = await alice.client.readResource({ uri: uri as string });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toHaveLength(50);
    const sliced = structured<{ total: number }>(
      await alice.client.callTool({ name: "read_resource", arguments: { uri, limit: 5 } }),
    );
    expect(sliced.total).toBe(50);
    const listed = await alice.client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(uri);

    await expect(bob.client.readResource({ uri: uri as string })).rejects.toMatchObject({ code: -32002 });
    const bobSlice = await bob.client.callTool({ name: "read_resource", arguments: { uri } });
    expect(bobSlice.isError).toBe(true);
    expect((await bob.client.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
  });

  it("refuses elicitation, sampling and subscriptions with the alternative, and GET or DELETE with 405", async () => {
    const { client } = await connect("alice-token");
    const elicit = await client.callTool({ name: "confirm", arguments: {} });
    expect(elicit.isError).toBe(true);
    expect(JSON.stringify(elicit.content)).toContain("not available on a stateless HTTP server");
    expect(JSON.stringify(elicit.content)).toContain("tool argument");
    const sample = await client.callTool({ name: "muse", arguments: {} });
    expect(JSON.stringify(sample.content)).toContain("ctx.sample (sampling/createMessage) is not available");
    await expect(client.subscribeResource({ uri: "ephemeral://report/x" })).rejects.toThrow(
      /resources\/subscribe is not available on a stateless HTTP server.*stateless: false/,
    );

    const headers = { authorization: "Bearer alice-token", accept: "text/event-stream" };
    const get = await fetch(urls[1] as string, { headers });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(((await get.json()) as { error: { message: string } }).error.message).toMatch(
      /stateless.*Last-Event-ID/,
    );
    const del = await fetch(urls[2] as string, { method: "DELETE", headers });
    expect(del.status).toBe(405);
    expect(((await del.json()) as { error: { message: string } }).error.message).toContain(
      "no session to end",
    );
  });

  it("answers 401 to a request without a principal, before reading it", async () => {
    const response = await fetch(urls[0] as string, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
  });

  it("leaves no request open once answered", async () => {
    const { client } = await connect("bob-token");
    await client.callTool({ name: "whoami", arguments: {} });
    expect(apps.map((app) => app.stats().sessions)).toEqual([0, 0, 0]);
    expect(apps.map((app) => app.stats().inFlight)).toEqual([0, 0, 0]);
  });
});

@McpService()
class PublicService {
  @Tool({ description: "Public numbers, the same for everyone" })
  @Cached({ ttl: 60_000, scope: "global" })
  hello(_input: unknown, ctx: ToolContext) {
    return { owner: ctx.owner, hasAuth: ctx.auth !== undefined };
  }

  @Tool({ description: "Holds until its request is gone" })
  async hold(_input: unknown, ctx: ToolContext) {
    holdStarted.resolve();
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener("abort", () => resolve(), { once: true }),
    );
    holdAborted.resolve();
    return { released: true };
  }

  @Tool({ description: "Tries to store something without a principal" })
  async stash(_input: unknown, ctx: ToolContext) {
    const meta = await ctx.resources.create("text");
    return { uri: meta.uri };
  }
}

const holdStarted = deferred();
const holdAborted = deferred();

@McpModule({ services: [PublicService] })
class PublicModule {}

describe("stateless HTTP start-up checks and anonymous callers", () => {
  it("refuses to start without authentication when the app declares owner-scoped features", async () => {
    const app = await McpFactory.create(ReportsModule, { name: "reports", version: "1.0.0" });
    try {
      await expect(app.listen({ transport: "http", port: 0, stateless: true })).rejects.toThrow(
        /no authenticate option is set.*ReportsService\.profile \(@Cached, scope "owner"\).*ReportsService\.report \(@Ephemeral, scope "owner"\).*authenticate: \(req\) => req\.auth/,
      );
      expect(() => app.httpHandler({ stateless: true, authenticate, allowAnonymous: true })).toThrow(
        /allowAnonymous lets requests without a principal through/,
      );
      expect(() =>
        app.httpHandler({ stateless: true, authenticate, eventStore: () => ({}) as never }),
      ).toThrow(/a store made per session could never be resumed from/);
    } finally {
      await app.close();
    }
  });

  it("serves anonymous callers of an app without owner-scoped features, each request standing alone", async () => {
    const app = await McpFactory.create(PublicModule, { name: "public", version: "1.0.0" });
    const { url } = await app.listen({ transport: "http", port: 0, stateless: true });
    const client = new Client({ name: "anon", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const one = structured<{ owner: string; hasAuth: boolean }>(
        await client.callTool({ name: "hello", arguments: {} }),
      );
      expect(one.hasAuth).toBe(false);
      expect(one.owner).toMatch(/^session:/);
      const stash = await client.callTool({ name: "stash", arguments: {} });
      expect(stash.isError).toBe(true);
      expect(JSON.stringify(stash.content)).toContain(
        "ctx.resources needs an owner that outlives the request",
      );

      // Without an event store nobody could fetch the answer later: a client that leaves ends the call.
      const leaving = new AbortController();
      const held = fetch(url, {
        method: "POST",
        signal: leaving.signal,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { name: "hold", arguments: {} },
        }),
      }).then((response) => response.text());
      await holdStarted.promise;
      leaving.abort();
      await expect(held).rejects.toThrow();
      await holdAborted.promise; // ctx.signal was aborted
    } finally {
      await client.close();
      await app.close();
    }
  });
});

function structured<T>(result: unknown): T {
  return (result as { structuredContent: T }).structuredContent;
}
