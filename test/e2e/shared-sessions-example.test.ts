/**
 * examples/shared-sessions: three instances with sessions in Redis behind a round-robin
 * balancer (no stickiness) and one SDK client: the session, a question answered through
 * another instance, a subscription's update, and DELETE ending the session everywhere.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { type McpApp, McpFactory, RedisEventStore } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BookingsModule } from "../../examples/shared-sessions/app.module.js";
import { roundRobin } from "../support/round-robin.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";

/** The free slots `slots://today` lists now. */
async function freeSlots(client: Client): Promise<string[]> {
  const [content] = (await client.readResource({ uri: "slots://today" })).contents;
  return (JSON.parse(content && "text" in content ? content.text : "{}") as { free: string[] }).free;
}

const prefix = randomPrefix("shared-sessions-example");
const available = await redisAvailable();

describe.runIf(available)("examples/shared-sessions", () => {
  const apps: McpApp[] = [];
  const stores: RedisEventStore[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    process.env.REDIS_PREFIX = prefix;
    process.env.REDIS_URL = REDIS_URL;
    for (let i = 0; i < 3; i++) {
      const app = await McpFactory.create(BookingsModule, { name: "bookings", version: "1.0.0" });
      const eventStore = new RedisEventStore({ url: REDIS_URL, prefix: `${prefix}events:` });
      apps.push(app);
      stores.push(eventStore);
      urls.push((await app.listen({ transport: "http", port: 0, eventStore })).url);
    }
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await Promise.all(stores.map((s) => s.close()));
    delete process.env.REDIS_PREFIX;
    await deletePrefix(prefix);
  });

  it("books a slot over one session whose requests land on every instance", async () => {
    const balancer = roundRobin(urls);
    const client = new Client(
      { name: "booker", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "Ada" },
    }));
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push(n.params.uri);
    });
    const transport = new StreamableHTTPClientTransport(new URL(urls[0] as string), {
      fetch: balancer.fetch,
    });
    await client.connect(transport);

    expect(await freeSlots(client)).toContain("10:00");
    await client.subscribeResource({ uri: "slots://today" });
    const booked = await client.callTool({ name: "book", arguments: { slot: "10:00" } });
    expect(booked.structuredContent).toEqual({ booked: true, slot: "10:00", name: "Ada" });
    // The POST carrying the client's answer went to another instance than the call.
    const call = balancer.routed.find((r) => r.rpc === "tools/call");
    const answer = balancer.routed.find(
      (r) => r.method === "POST" && r.rpc === undefined && r.status === 202,
    );
    expect(answer?.instance).not.toBe(call?.instance);
    await expect.poll(() => updates, { timeout: 5000 }).toEqual(["slots://today"]);
    expect(await freeSlots(client)).not.toContain("10:00");
    // Every instance served this session.
    expect(new Set(balancer.routed.map((r) => r.instance)).size).toBe(3);

    const sessionId = transport.sessionId as string;
    await transport.terminateSession();
    for (const url of urls) {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      await response.body?.cancel();
      expect(response.status).toBe(404);
    }
    await client.close();
  });
});
