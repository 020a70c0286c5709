/** examples/front-door: one front door for a 2025 session and a 2026-07-28 request, and a PIN asked once. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type McpApp, McpFactory } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransfersModule } from "../../examples/front-door/app.module.js";
import { authenticate } from "../../examples/front-door/auth.js";
import { Ledger } from "../../examples/front-door/transfers.service.js";
import { call2026, headers2026, postRaw } from "../support/front-door.js";
import { textOf } from "../support/raw-2026.js";

describe("examples/front-door", () => {
  let app: McpApp;
  let url: string;

  beforeAll(async () => {
    app = await McpFactory.create(TransfersModule, {
      name: "transfers",
      version: "1.0.0",
      protocol: "2026-07-28",
      cursorSecret: "front-door-example-secret-of-enough-length",
    });
    url = (await app.listen({ transport: "http", port: 0, authenticate, maxConnections: 16 })).url;
  });
  afterAll(() => app.close());

  const transfer = { to: "bob", amount: 5, region: "eu" };
  const withRegion = (token: string | undefined, region = "eu") => ({
    ...headers2026("tools/call", "transfer", token),
    "mcp-param-region": region,
  });

  it("answers a 2026-07-28 request without a token 401, and serves a 2025 session of alice as alice", async () => {
    const refused = await call2026(url, "whoami");
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain("Bearer");

    const client = new Client({ name: "alice", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: "Bearer demo-alice" } },
      }),
    );
    const result = await client.callTool({ name: "whoami", arguments: {} });
    expect(result.structuredContent).toEqual({ owner: "principal:alice", clientId: "alice" });
    await client.close();
  });

  it("asks alice's PIN on 2026-07-28, runs the transfer once, and gives a repeat the first answer", async () => {
    const ledger = app.get(Ledger);
    const before = ledger.transfers.length;
    const body = (params: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
            "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
          },
          name: "transfer",
          arguments: transfer,
          ...params,
        },
      });
    const asked = await postRaw(url, body({}), withRegion("demo-alice"));
    expect(asked.body?.result?.resultType, asked.text).toBe("input_required");
    const answered = body({
      requestState: asked.body.result.requestState,
      inputResponses: { "frugal.0": { action: "accept", content: { pin: "1234" } } },
    });
    const done = await postRaw(url, answered, withRegion("demo-alice"));
    expect(textOf(done.body.result)).toMatch(/^Sent 5 to bob as principal:alice/);
    const again = await postRaw(url, answered, withRegion("demo-alice"));
    expect(textOf(again.body.result)).toBe(textOf(done.body.result));
    expect(ledger.transfers.length).toBe(before + 1);

    const bob = await postRaw(url, answered, withRegion("demo-bob"));
    expect(bob.body?.error?.code, bob.text).toBe(-32602);
    expect(ledger.transfers.length).toBe(before + 1);
  });

  it("refuses a 2026-07-28 call whose Mcp-Param-Region header disagrees with its region argument", async () => {
    const answer = await call2026(url, "transfer", { arguments: transfer }, "demo-alice");
    expect(answer.status).toBe(400);
    expect(answer.body?.error?.code).toBe(-32020);
    expect(answer.body?.error?.message).toContain("Mcp-Param-Region");
    const wrong = await postRaw(
      url,
      JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "transfer", arguments: transfer },
      }),
      withRegion("demo-alice", "us"),
    );
    expect(wrong.status).toBe(400);
  });

  it("still elicits the PIN from a 2025 client (server-to-client request)", async () => {
    const client = new Client({ name: "alice", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { pin: "1234" },
    }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: "Bearer demo-alice" } },
      }),
    );
    const result = await client.callTool({ name: "transfer", arguments: transfer });
    expect(textOf(result)).toMatch(/^Sent 5 to bob as principal:alice/);
    await client.close();
  });
});
