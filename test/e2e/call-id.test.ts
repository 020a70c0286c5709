/**
 * `ctx.callId`: unique per call across sessions and instances, the same across the
 * input-required rounds of one 2026-07-28 request. URIs a handler names after the call
 * (`results://search/${ctx.callId}`) no longer collide between two sessions of one
 * principal, as URIs named after the JSON-RPC `requestId` did (each client numbers its
 * requests from the same start).
 */
import { Client as ClientV2, InMemoryTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type McpApp, McpFactory, McpModule, McpService, Resource, Tool, type ToolContext } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { McpApp2026 } from "../../src/app/app-2026.js";
import { authenticate } from "../support/front-door.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Every callId each run of `ask_colour` saw, in order (a replayed round runs the handler again). */
const runs: string[] = [];

@McpService()
class SearchService {
  @Tool({ input: { query: z.string() } })
  async search({ query }: { query: string }, ctx: ToolContext) {
    const hits = [`${query} 1`, `${query} 2`];
    const stored = await ctx.resources.create(hits, { uri: `results://search/${ctx.callId}` });
    return { uri: stored.uri, callId: ctx.callId, requestId: ctx.requestId };
  }

  @Tool()
  async askColour(_input: unknown, ctx: ToolContext) {
    runs.push(ctx.callId);
    const answer = await ctx.elicit({
      message: "Your colour?",
      requestedSchema: { type: "object", properties: { colour: { type: "string" } }, required: ["colour"] },
    });
    runs.push(ctx.callId);
    return `${ctx.callId} ${String(answer.content?.colour)}`;
  }

  @Resource("calls://mine")
  mine(_input: unknown, ctx: ToolContext) {
    return ctx.callId;
  }
}

@McpModule({ services: [SearchService] })
class SearchModule {}

const textOf = (result: unknown) =>
  (((result as { content: unknown }).content as Array<{ text?: string }>)[0]?.text ?? "") as string;

describe("ctx.callId on 2025-11-25 sessions", () => {
  let app: McpApp;
  let url: string;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await McpFactory.create(SearchModule, { name: "search", version: "1.0.0" });
    url = (await app.listen({ transport: "http", port: 0, authenticate })).url as string;
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await app.close();
  });

  /** A new session of the principal `alice` (a chat of hers). */
  async function aliceSession() {
    const client = new Client({ name: "chat", version: "1.0.0" });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: "Bearer good-alice" } },
      }),
    );
    return client;
  }

  const search = async (client: Client, query: string) =>
    (await client.callTool({ name: "search", arguments: { query } })).structuredContent as {
      uri: string;
      callId: string;
      requestId: number;
    };

  it("keeps two sessions of one principal apart where the requestId collides", async () => {
    const [first, second] = [await aliceSession(), await aliceSession()];
    const mine = await search(first, "alpha");
    const theirs = await search(second, "beta");
    // The JSON-RPC ids are the same: each client numbers its own requests.
    expect(theirs.requestId).toBe(mine.requestId);
    expect(mine.callId).toMatch(UUID);
    expect(theirs.callId).toMatch(UUID);
    expect(theirs.uri).not.toBe(mine.uri);
    // Each chat's link still serves its own results, not the other chat's.
    const read = async (client: Client, uri: string) =>
      JSON.parse(((await client.readResource({ uri })).contents[0] as { text: string }).text);
    expect(await read(first, mine.uri)).toEqual(["alpha 1", "alpha 2"]);
    expect(await read(second, theirs.uri)).toEqual(["beta 1", "beta 2"]);
    // The same principal owns both: either session reads either link.
    expect(await read(second, mine.uri)).toEqual(["alpha 1", "alpha 2"]);
  });

  it("is new on every call, tools and resources alike, and stable within one call", async () => {
    const client = await aliceSession();
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await search(client, `q${i}`)).callId);
    const read = await client.readResource({ uri: "calls://mine" });
    const resourceCallId = (read.contents[0] as { text: string }).text;
    expect(resourceCallId).toMatch(UUID);
    ids.add(resourceCallId);
    expect(ids.size).toBe(21);
  });
});

describe("ctx.callId on 2026-07-28 requests", () => {
  let app: McpApp2026;
  beforeAll(async () => {
    app = (await McpFactory.create(SearchModule, {
      name: "search",
      version: "1.0.0",
      protocol: "2026-07-28",
      cursorSecret: "a long enough test secret for request state",
    })) as McpApp2026;
  });
  afterAll(() => app.close());

  async function connect(mode: "legacy" | "auto") {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new ClientV2(
      { name: "v2-client", version: "1.0.0" },
      { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", async () => ({
      action: "accept" as const,
      content: { colour: "green" },
    }));
    await client.connect(clientSide);
    return client;
  }

  it("stays the same across the input-required rounds of one request, and differs between requests", async () => {
    const client = await connect("auto");
    try {
      runs.length = 0;
      const first = textOf(await client.callTool({ name: "ask_colour", arguments: {} }));
      // The first round stops at the question; the answered round runs the handler again from the start.
      expect(runs).toHaveLength(3);
      const [callId] = runs;
      expect(callId).toMatch(UUID);
      expect(runs).toEqual([callId, callId, callId]);
      expect(first).toBe(`${callId} green`);
      runs.length = 0;
      const second = textOf(await client.callTool({ name: "ask_colour", arguments: {} }));
      expect(runs[0]).toMatch(UUID);
      expect(runs[0]).not.toBe(callId);
      expect(second).toBe(`${runs[0]} green`);
    } finally {
      await client.close();
    }
  });

  it("is a fresh UUID per call for a legacy client of the same app", async () => {
    const client = await connect("legacy");
    try {
      runs.length = 0;
      const answer = textOf(await client.callTool({ name: "ask_colour", arguments: {} }));
      expect(runs).toHaveLength(2);
      expect(runs[0]).toMatch(UUID);
      expect(runs[1]).toBe(runs[0]);
      expect(answer).toBe(`${runs[0]} green`);
      const stored = (await client.callTool({ name: "search", arguments: { query: "x" } }))
        .structuredContent as {
        callId: string;
      };
      expect(stored.callId).toMatch(UUID);
      expect(stored.callId).not.toBe(runs[0]);
    } finally {
      await client.close();
    }
  });
});
