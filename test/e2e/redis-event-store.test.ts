/**
 * Resumable streams across instances: stateless instances share a `RedisEventStore`, so a
 * client whose POST stream broke resumes it with `Last-Event-ID` on another instance,
 * which replays what it missed from Redis and follows the stream until the instance
 * running the call answers.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type McpApp, McpFactory, McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Authenticate } from "../../src/transports/authenticate.js";
import { RedisEventStore } from "../../src/transports/redis-event-store.js";
import { deferred } from "../support/gates.js";
import { roundRobin } from "../support/round-robin.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";

const prefix = randomPrefix("redis-event-store");
const available = await redisAvailable();

/** The `slow_report` call has closed its stream and waits for the test. */
let reached = deferred();
/** Lets `slow_report` answer. */
let release = deferred();

@McpService()
class JobsService {
  @Tool({ description: "A long job that lets its client poll (it closes its stream)" })
  async slowReport(_input: unknown, ctx: ToolContext) {
    await ctx.progress(1, 2, "started");
    // Switches the client to polling: it reconnects with Last-Event-ID (to another instance here).
    ctx.closeSSEStream();
    reached.resolve();
    await release.promise;
    return { done: true, by: ctx.auth?.clientId };
  }

  @Tool({ description: "Echo", input: { text: z.string() } })
  echo({ text }: { text: string }, ctx: ToolContext) {
    return { text, by: ctx.auth?.clientId };
  }
}

@McpModule({ services: [JobsService] })
class JobsModule {}

const TOKENS: Record<string, string> = { "alice-token": "alice", "bob-token": "bob" };
const authenticate: Authenticate = (req) => TOKENS[req.headers.authorization?.replace(/^Bearer /, "") ?? ""];

/** The SSE events of a response body: id and data. */
function sseEvents(text: string): Array<{ id: string | undefined; data: string }> {
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const lines = block.split("\n");
      return {
        id: lines.find((l) => l.startsWith("id: "))?.slice(4),
        data:
          lines
            .find((l) => l.startsWith("data:"))
            ?.slice(5)
            .trim() ?? "",
      };
    });
}

describe.runIf(available)("RedisEventStore: a stream resumed on another instance", () => {
  const apps: McpApp[] = [];
  const stores: RedisEventStore[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 3; i++) {
      const app = await McpFactory.create(JobsModule, { name: `jobs-${i}`, version: "1.0.0" });
      const eventStore = new RedisEventStore({ url: REDIS_URL, prefix, pollIntervalMs: 20 });
      const { url } = await app.listen({
        transport: "http",
        port: 0,
        stateless: true,
        authenticate,
        eventStore,
        retryIntervalMs: 10,
      });
      apps.push(app);
      stores.push(eventStore);
      urls.push(url);
    }
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(stores.map((store) => store.close()));
    await deletePrefix(prefix);
  });

  it("delivers the answer of a call running on one instance to the client that resumed on another", async () => {
    reached = deferred();
    release = deferred();
    const resumed = deferred();
    const balancer = roundRobin(urls, (routed) => {
      if (routed.method === "GET" && routed.lastEventId) resumed.resolve();
    });
    const client = new Client({ name: "poller", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(urls[0] as string), {
        fetch: balancer.fetch,
        requestInit: { headers: { authorization: "Bearer alice-token" } },
      }),
    );
    try {
      const progress: number[] = [];
      const call = client.callTool({ name: "slow_report", arguments: {} }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      await reached.promise;
      await resumed.promise; // the client came back with Last-Event-ID, on the next instance
      release.resolve(); // only now does the call (on the first instance) answer
      const result = await call;
      expect(result.structuredContent).toEqual({ done: true, by: "alice" });
      expect(progress).toEqual([1]);
      const post = balancer.routed.find((r) => r.rpc === "tools/call");
      const resume = balancer.routed.find((r) => r.method === "GET" && r.lastEventId);
      expect(resume?.status).toBe(200);
      expect(resume?.instance).not.toBe(post?.instance);
    } finally {
      await client.close();
    }
  });

  it("replays missed messages to their principal only, on any instance", async () => {
    const post = await fetch(urls[0] as string, {
      method: "POST",
      headers: {
        authorization: "Bearer alice-token",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "hi" } },
      }),
    });
    const events = sseEvents(await post.text());
    const priming = events[0]?.id as string;
    expect(events[0]?.data).toBe(""); // the priming event: an id, no data
    expect(events.at(-1)?.data).toContain('"text":"hi"');

    // As if the client had lost everything after the priming event: instance 2 replays the answer.
    const resume = (token: string, lastEventId: string, url = urls[1] as string) =>
      fetch(url, {
        headers: {
          authorization: `Bearer ${token}`,
          accept: "text/event-stream",
          "last-event-id": lastEventId,
        },
      });
    const replayed = await resume("alice-token", priming);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get("content-type")).toBe("text/event-stream");
    const replay = sseEvents(await replayed.text());
    expect(replay.map((e) => JSON.parse(e.data))).toEqual([
      {
        jsonrpc: "2.0",
        id: 7,
        result: expect.objectContaining({ structuredContent: { text: "hi", by: "alice" } }),
      },
    ]);
    expect(replay[0]?.id).toBe(events.at(-1)?.id);

    // Bob holds Alice's event id: it names no stream of his.
    const stolen = await resume("bob-token", priming, urls[2]);
    expect(stolen.status).toBe(400);
    expect(((await stolen.json()) as { error: { message: string } }).error.message).toContain(
      "Cannot resume after this Last-Event-ID",
    );
    expect((await resume("alice-token", "garbage")).status).toBe(400);
    expect((await resume("alice-token", `${priming.split("|")[0]}|99999999999999-0`)).status).toBe(400);
  });

  it("serves a stateful server's sessions from one shared store, each resuming only its own streams", async () => {
    const app = await McpFactory.create(JobsModule, { name: "jobs-stateful", version: "1.0.0" });
    const eventStore = new RedisEventStore({ url: REDIS_URL, prefix });
    try {
      const { url } = await app.listen({ transport: "http", port: 0, authenticate, eventStore });
      const headers = (sessionId?: string) => ({
        authorization: "Bearer alice-token",
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        ...(sessionId ? { "mcp-session-id": sessionId } : {}),
      });
      const open = async () => {
        const response = await fetch(url, {
          method: "POST",
          headers: headers(),
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: {
              protocolVersion: "2025-11-25",
              capabilities: {},
              clientInfo: { name: "raw", version: "1" },
            },
          }),
        });
        await response.body?.cancel();
        return response.headers.get("mcp-session-id") as string;
      };
      const [first, second] = [await open(), await open()];
      const call = await fetch(url, {
        method: "POST",
        headers: headers(first),
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "echo", arguments: { text: "mine" } },
        }),
      });
      const priming = sseEvents(await call.text())[0]?.id as string;
      const resume = (sessionId: string) =>
        fetch(url, {
          headers: { ...headers(sessionId), accept: "text/event-stream", "last-event-id": priming },
        });
      // The other session (same principal, even) cannot replay it.
      const foreign = await resume(second);
      expect(foreign.status).toBe(400);
      await foreign.body?.cancel();
      // Its own session replays the answer (the SDK transport keeps the resumed stream open: read one event).
      const own = await resume(first);
      expect(own.status).toBe(200);
      const reader = (own.body as ReadableStream<Uint8Array>).getReader();
      let text = "";
      while (!text.includes("\n\n")) text += new TextDecoder().decode((await reader.read()).value);
      await reader.cancel();
      expect(JSON.parse(sseEvents(text)[0]?.data ?? "")).toMatchObject({
        id: 2,
        result: { structuredContent: { text: "mine" } },
      });
    } finally {
      await app.close();
      await eventStore.close();
    }
  });

  it("keeps each stream for ttlMs after its last event", async () => {
    const redis = new Redis(REDIS_URL);
    try {
      const keys: string[] = [];
      let cursor = "0";
      do {
        const [next, found] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
        cursor = next;
        keys.push(...found);
      } while (cursor !== "0");
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        const ttl = await redis.pttl(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(stores[0]?.ttlMs as number);
      }
    } finally {
      redis.disconnect();
    }
  });
});
