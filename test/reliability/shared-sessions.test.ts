/**
 * Shared sessions under faults and load (issue 28): three instances sharing sessions
 * through Redis behind a round-robin client.
 *
 * - Redis hangs for 3 s (its own `redis-server`, SIGSTOP): each request answers 503 with a message
 *   saying the session store is unavailable; once Redis answers, the session goes on and
 *   still serves only its own client.
 * - An instance stops in the middle of a call: the call fails with a clear error, and the
 *   session goes on on the other instances.
 * - 200 sessions over three instances, each asked a question (`ctx.elicit`) whose answer
 *   may land on any instance: no answer or result reaches another session, and no record
 *   is left once every session ended with DELETE.
 *
 *   npx vitest run --config vitest.reliability.config.ts test/reliability/shared-sessions.test.ts
 */
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpModule, McpService, SESSION_STORE, type SessionStore, Tool, type ToolContext } from "frugal-mcp";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deferred } from "../support/gates.js";
import { Instances, type RoundRobinClient } from "../support/instances.js";
import { OwnRedis, redisServerInstalled } from "../support/own-redis.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";

const available = (await redisAvailable()) && redisServerInstalled();
let started = deferred();
let release = deferred();

@McpService()
class WhoService {
  @Tool()
  whoami(_input: unknown, ctx: ToolContext) {
    return { session: ctx.sessionId };
  }

  @Tool({ input: { question: z.string() } })
  async ask({ question }: { question: string }, ctx: ToolContext) {
    const answer = await ctx.elicit({
      message: question,
      requestedSchema: { type: "object", properties: { reply: { type: "string" } }, required: ["reply"] },
    });
    return { session: ctx.sessionId, reply: answer.content?.reply };
  }

  @Tool()
  async held(_input: unknown, ctx: ToolContext) {
    started.resolve();
    await Promise.race([
      release.promise,
      new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true })),
    ]);
    return { done: true };
  }
}

@McpModule({ services: [WhoService] })
class WhoModule {}

const sessionIdOf = (client: RoundRobinClient) =>
  (client.next().transport as StreamableHTTPClientTransport).sessionId as string;
const structured = <T>(result: unknown) => (result as { structuredContent: T }).structuredContent;

describe.skipIf(!available)("shared sessions under faults and load", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  it("answers 503 with a clear message while Redis hangs, and goes on once it answers", async () => {
    const server = await OwnRedis.start();
    cleanups.push(() => server.stop());
    const instances = await Instances.start(WhoModule, {
      count: 3,
      prefix: `shared-faults:${Date.now()}:`,
      redisUrl: server.url,
      sharedSessions: true,
    });
    cleanups.push(() => instances.close());
    const alice = await instances.connect("alice");
    const sessionId = sessionIdOf(alice);
    const client = alice.next();
    await client.callTool({ name: "whoami", arguments: {} });
    server.pause();
    // Redis hangs for 3 s: every request meanwhile, on every instance, gets the same clear answer.
    const pausedAt = Date.now();
    let refused = 0;
    try {
      while (Date.now() - pausedAt < 3000) {
        refused++;
        await expect(client.callTool({ name: "whoami", arguments: {} })).rejects.toMatchObject({
          code: 503,
          message: expect.stringMatching(/Session store unavailable/),
        });
      }
    } finally {
      server.resume();
    }
    expect(refused).toBeGreaterThanOrEqual(3);
    // Back: every instance serves the same session again, to its own client only.
    // (Each instance's connection reconnects on its own: wait until three calls in a row, one per instance, pass.)
    const threeInARow = async () => {
      for (let i = 0; i < 3; i++) {
        if ((await client.callTool({ name: "whoami", arguments: {} }).catch(() => undefined)) === undefined)
          return false;
      }
      return true;
    };
    await expect.poll(threeInARow, { timeout: 10_000, interval: 100 }).toBe(true);
    for (let i = 0; i < 3; i++) {
      const who = structured<{ session: string }>(await client.callTool({ name: "whoami", arguments: {} }));
      expect(who.session).toBe(sessionId);
    }
  });

  it("fails a call cut by its instance stopping, and keeps the session on the others", async () => {
    const prefix = randomPrefix("shared-stop");
    const instances = await Instances.start(WhoModule, {
      count: 3,
      prefix,
      sharedSessions: true,
      appOptions: { drainTimeoutMs: 100 },
    });
    cleanups.push(() => deletePrefix(prefix));
    cleanups.push(() => instances.close());
    const bob = await instances.connect("bob");
    const client = bob.next();
    started = deferred();
    release = deferred();
    const call = client.callTool({ name: "held", arguments: {} }).then(
      () => new Error("the call was not cut"),
      (error: unknown) => error,
    );
    await started.promise;
    const running = [0, 1, 2].find((i) => instances.app(i).stats().inFlight > 0) as number;
    expect(running).toBeDefined();
    await instances.restart(running);
    expect(String(await call)).toMatch(/Server is shutting down/);
    release.resolve();
    for (let i = 0; i < 4; i++) {
      const who = structured<{ session: string }>(await client.callTool({ name: "whoami", arguments: {} }));
      expect(who.session).toBe(sessionIdOf(bob));
    }
  });

  it("keeps 200 sessions over three instances apart, and leaves no record once they end", async () => {
    const prefix = randomPrefix("shared-200");
    const instances = await Instances.start(WhoModule, { count: 3, prefix, sharedSessions: true });
    cleanups.push(() => deletePrefix(prefix));
    cleanups.push(() => instances.close());
    const clients: RoundRobinClient[] = [];
    let crossed = 0;
    for (let batch = 0; batch < 10; batch++) {
      const opened = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          instances.connect(`p${batch * 20 + i}`, { elicitation: { form: {} } }),
        ),
      );
      clients.push(...opened);
    }
    await Promise.all(
      clients.map(async (rr) => {
        const client = rr.next();
        const own = sessionIdOf(rr);
        client.setRequestHandler(ElicitRequestSchema, async (request) => ({
          action: "accept",
          content: { reply: `${own}:${request.params.message}` },
        }));
        for (let n = 0; n < 3; n++) {
          const answer = structured<{ session: string; reply: string }>(
            await client.callTool({ name: "ask", arguments: { question: String(n) } }),
          );
          if (answer.session !== own || answer.reply !== `${own}:${n}`) crossed++;
        }
      }),
    );
    expect(crossed).toBe(0);
    await Promise.all(
      clients.map((rr) => (rr.next().transport as StreamableHTTPClientTransport).terminateSession()),
    );
    const store = instances.app(0).get(SESSION_STORE) as SessionStore;
    expect(await store.count()).toBe(0);
    const redis = new Redis(REDIS_URL);
    try {
      const [, keys] = await redis.scan("0", "MATCH", `${prefix}sessions:*`, "COUNT", 10_000);
      // Only the set of live sessions may remain, and it is empty (Redis drops an empty set).
      expect(keys).toEqual([]);
    } finally {
      redis.disconnect();
    }
  });
});
