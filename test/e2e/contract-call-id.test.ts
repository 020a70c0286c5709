/**
 * The contract's `ctx.callId` (DESIGN.md "Handler signature"; README "Protocol versions"),
 * written from its text alone: unique per call across all sessions and instances, and the
 * same across the input-required rounds of one 2026-07-28 request (it rides in the request
 * state, so a round answered on another instance keeps it).
 */

import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  createTestClient,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messagesOf } from "../support/raw-2026.js";

/** The callId of every run of `ask` (an answered round runs the handler again from the start). */
const runs: string[] = [];

@McpService()
class CallService {
  @Tool({ description: "Its call's id" })
  id(_input: unknown, ctx: ToolContext) {
    return ctx.callId;
  }

  @Tool({ description: "Asks a colour, answers with its call's id" })
  async ask(_input: unknown, ctx: ToolContext) {
    runs.push(ctx.callId);
    const answer = await ctx.elicit({
      message: "Your colour?",
      requestedSchema: { type: "object", properties: { colour: { type: "string" } }, required: ["colour"] },
    });
    return `${ctx.callId} ${String(answer.content?.colour)}`;
  }
}

@McpModule({ services: [CallService] })
class CallModule {}

const SECRET = "a long enough secret shared by both instances";
const textOf = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? "") as string;

const apps: McpApp[] = [];
afterAll(() => Promise.allSettled(apps.map((app) => app.close())));

async function start(modern: boolean) {
  const app = await McpFactory.create(CallModule, {
    name: "calls",
    version: "1.0.0",
    cursorSecret: SECRET,
    ...(modern ? { protocol: "2026-07-28" as const } : {}),
  });
  apps.push(app);
  return { app, url: (await app.listen({ transport: "http", port: 0 })).url as string };
}

describe("ctx.callId is unique per call across sessions and instances", () => {
  it("differs on every call of two in-memory sessions of two apps", async () => {
    const clients = [
      await createTestClient(CallModule, { name: "a", version: "1.0.0" }),
      await createTestClient(CallModule, { name: "a", version: "1.0.0" }),
      await createTestClient(CallModule, { name: "b", version: "1.0.0" }),
    ];
    try {
      const ids: string[] = [];
      for (const client of clients) {
        for (let i = 0; i < 3; i++) ids.push(textOf(await client.callTool({ name: "id", arguments: {} })));
      }
      expect(ids.every((id) => id.length > 0)).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it("differs on every call of sessions over Streamable HTTP, on both registrars", async () => {
    const ids: string[] = [];
    for (const modern of [false, true]) {
      const { url } = await start(modern);
      for (let session = 0; session < 2; session++) {
        const client = new Client({ name: "v1", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        for (let i = 0; i < 3; i++) ids.push(textOf(await client.callTool({ name: "id", arguments: {} })));
        await client.close();
      }
      if (modern) {
        const client = new ClientV2(
          { name: "v2", version: "1.0.0" },
          { versionNegotiation: { mode: { pin: "2026-07-28" } } },
        );
        await client.connect(new HttpV2(new URL(url)));
        for (let i = 0; i < 3; i++) ids.push(textOf(await client.callTool({ name: "id", arguments: {} })));
        await client.close();
      }
    }
    expect(ids).toHaveLength(15);
    expect(new Set(ids).size).toBe(15);
  });
});

describe("ctx.callId across the input-required rounds of one 2026-07-28 request", () => {
  let a: string;
  let b: string;
  beforeAll(async () => {
    a = (await start(true)).url;
    b = (await start(true)).url;
  });

  it("is the same on every round through the SDK client, and new on the next request", async () => {
    const client = new ClientV2(
      { name: "v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", async () => ({
      action: "accept" as const,
      content: { colour: "green" },
    }));
    await client.connect(new HttpV2(new URL(a)));
    try {
      runs.length = 0;
      const first = textOf(await client.callTool({ name: "ask", arguments: {} }));
      expect(runs.length).toBeGreaterThanOrEqual(2);
      expect(new Set(runs).size).toBe(1);
      expect(first).toBe(`${runs[0]} green`);
      const firstId = runs[0];
      runs.length = 0;
      const second = textOf(await client.callTool({ name: "ask", arguments: {} }));
      expect(new Set(runs).size).toBe(1);
      expect(runs[0]).not.toBe(firstId);
      expect(second).toBe(`${runs[0]} green`);
    } finally {
      await client.close();
    }
  });

  it("is the same when the answered round goes to another instance", async () => {
    const post = async (url: string, params: Record<string, unknown>) => {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "ask",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "ask",
            arguments: {},
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
              "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
            },
            ...params,
          },
        }),
      });
      return messagesOf(await response.text()).find((message) => "result" in message || "error" in message);
    };
    runs.length = 0;
    const first = await post(a, {});
    expect(first.result?.resultType, JSON.stringify(first)).toBe("input_required");
    const [key] = Object.keys(first.result.inputRequests);
    const done = await post(b, {
      requestState: first.result.requestState,
      inputResponses: { [key as string]: { action: "accept", content: { colour: "red" } } },
    });
    expect(runs).toHaveLength(2);
    expect(runs[1]).toBe(runs[0]);
    expect(textOf(done.result)).toBe(`${runs[0]} red`);
  });
});
