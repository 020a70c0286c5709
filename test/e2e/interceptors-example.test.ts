import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createTestClient, LOGGER, type Logger, type McpApp, McpFactory, type TestClient } from "frugal-mcp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appOptions, NotesModule } from "../../examples/interceptors/app.module.js";
import { authenticate, withBearerAuth } from "../../examples/interceptors/auth.js";
import {
  LatencyMetrics,
  type LatencySummary,
} from "../../examples/interceptors/latency-metrics.interceptor.js";
import { RequireScope } from "../../examples/interceptors/require-scope.interceptor.js";

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

/** A logger that keeps the framework's (and RequireScope's) warnings. */
function recordingLogger() {
  const warnings: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn(message) {
      warnings.push(message);
    },
    error() {},
  };
  return { logger, warnings };
}

describe("examples/interceptors over HTTP, behind the demo bearer tokens", () => {
  let app: McpApp;
  let server: Server;
  let url: string;
  let warnings: string[];
  const clients: Client[] = [];

  const connect = async (token?: string) => {
    const client = new Client({ name: "example-test", version: "0.0.0" });
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
    return client;
  };

  beforeEach(async () => {
    const recording = recordingLogger();
    warnings = recording.warnings;
    app = await McpFactory.create(NotesModule, {
      ...appOptions,
      providers: [{ provide: LOGGER, useValue: recording.logger }],
    });
    server = createServer(withBearerAuth(app.httpHandler()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await app.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it("refuses requests without a known token before they reach MCP", async () => {
    await expect(connect()).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining("Unauthorized"),
    });
    await expect(connect("not-a-token")).rejects.toMatchObject({ code: 401 });
    const refused = await fetch(url, { method: "POST", headers: { authorization: "Bearer demo-nobody" } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="mcp"');
    const elsewhere = await fetch(url.replace("/mcp", "/other"), {
      headers: { authorization: "Bearer demo-reader" },
    });
    expect(elsewhere.status).toBe(404);
    expect(app.stats().sessions).toBe(0);
  });

  it("lets each token do what its scopes allow, and says which scope is missing", async () => {
    const writer = await connect("demo-writer");
    const reader = await connect("demo-reader");
    const ops = await connect("demo-ops");

    const added = await writer.callTool({ name: "add_note", arguments: { text: "ship it" } });
    expect(added.structuredContent).toEqual({ id: 2, text: "ship it", author: "writer" });

    const listed = await reader.callTool({ name: "list_notes", arguments: {} });
    expect((listed.structuredContent as { notes: unknown[] }).notes).toHaveLength(2);

    const write = await reader.callTool({ name: "add_note", arguments: { text: "nope" } });
    expect(write.isError).toBe(true);
    expect(text(write)).toBe('Forbidden: add_note needs the "notes:write" scope; this token has notes:read.');

    const metrics = await reader.callTool({ name: "metrics", arguments: {} });
    expect(text(metrics)).toBe(
      'Forbidden: metrics needs the "metrics:read" scope; this token has notes:read.',
    );
    expect((await ops.callTool({ name: "list_notes", arguments: {} })).isError).toBe(true);

    expect(warnings).toEqual([
      'refused tool "add_note" to reader: missing scope notes:write',
      'refused tool "metrics" to reader: missing scope metrics:read',
      'refused tool "list_notes" to ops: missing scope notes:read',
    ]);
  });

  it("guards the cached list: a token without notes:read is refused even on a cache hit", async () => {
    const reader = await connect("demo-reader");
    const ops = await connect("demo-ops");
    await reader.callTool({ name: "list_notes", arguments: {} });
    await reader.callTool({ name: "list_notes", arguments: {} });
    expect(app.stats().cache.hits).toBe(1);
    const refused = await ops.callTool({ name: "list_notes", arguments: {} });
    expect(text(refused)).toBe(
      'Forbidden: list_notes needs the "notes:read" scope; this token has metrics:read.',
    );
    expect(app.stats().cache.hits).toBe(1);
  });

  it("reports per-tool calls, errors and p50/p95 latency through the metrics tool", async () => {
    const writer = await connect("demo-writer");
    const reader = await connect("demo-reader");
    const ops = await connect("demo-ops");
    await writer.callTool({ name: "add_note", arguments: { text: "one" } });
    await reader.callTool({ name: "add_note", arguments: { text: "refused" } });
    for (let i = 0; i < 3; i++) await reader.callTool({ name: "list_notes", arguments: {} });

    const result = await ops.callTool({ name: "metrics", arguments: {} });
    const { tools } = result.structuredContent as { tools: Record<string, LatencySummary> };
    // `metrics` itself is recorded once its own call has returned.
    expect(Object.keys(tools).sort()).toEqual(["add_note", "list_notes"]);
    expect(tools.add_note).toMatchObject({ calls: 2, errors: 1 });
    expect(tools.list_notes).toMatchObject({ calls: 3, errors: 0 });
    for (const summary of Object.values(tools)) {
      expect(summary.p50Ms).toBeGreaterThanOrEqual(0);
      expect(summary.p95Ms).toBeGreaterThanOrEqual(summary.p50Ms);
    }
    expect(app.get(LatencyMetrics).snapshot().metrics).toMatchObject({ calls: 1, errors: 0 });
  });
});

describe("examples/interceptors in memory", () => {
  let t: TestClient;
  let warnings: string[];
  beforeEach(async () => {
    const recording = recordingLogger();
    warnings = recording.warnings;
    t = await createTestClient(NotesModule, {
      ...appOptions,
      providers: [{ provide: LOGGER, useValue: recording.logger }],
    });
  });
  afterEach(() => t.close());

  it("refuses every guarded tool to a caller without credentials, and still times the refusals", async () => {
    const listed = await t.client.callTool({ name: "list_notes", arguments: {} });
    expect(listed.isError).toBe(true);
    expect(text(listed)).toBe(
      'Unauthenticated: list_notes needs a bearer token with the "notes:read" scope.',
    );
    expect(warnings).toEqual([
      'refused tool "list_notes" to an unauthenticated caller: missing scope notes:read',
    ]);
    // The interceptor the app ran is the provider the module registered (one instance).
    expect(t.app.get(LatencyMetrics).snapshot()).toMatchObject({ list_notes: { calls: 1, errors: 1 } });
  });

  it("computes nearest-rank percentiles over the last 1,024 calls", () => {
    const latency = new LatencyMetrics();
    for (let ms = 1; ms <= 100; ms++) latency.observe("probe", ms);
    expect(latency.snapshot().probe).toEqual({ calls: 100, errors: 0, p50Ms: 50, p95Ms: 95 });
    // 1,024 more slow calls push every fast one out of the window.
    for (let i = 0; i < 1024; i++) latency.observe("probe", 1000 + (i % 2), i === 0);
    expect(latency.snapshot().probe).toEqual({ calls: 1124, errors: 1, p50Ms: 1000, p95Ms: 1001 });
  });

  it("builds one interceptor class per scope", () => {
    expect(RequireScope("notes:read")).toBe(RequireScope("notes:read"));
    expect(RequireScope("notes:read")).not.toBe(RequireScope("notes:write"));
    expect(RequireScope("notes:write").name).toBe("RequireScope(notes:write)");
  });

  it("maps only well-formed, known bearer tokens to auth info", () => {
    expect(authenticate("Bearer demo-writer")).toEqual({
      token: "demo-writer",
      clientId: "writer",
      scopes: ["notes:read", "notes:write"],
    });
    expect(authenticate(undefined)).toBeUndefined();
    expect(authenticate("demo-writer")).toBeUndefined();
    expect(authenticate("Bearer toString")).toBeUndefined();
    expect(authenticate("Bearer demo-writer extra")).toBeUndefined();
  });
});
