import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionHost } from "../../../src/transports/session-host.js";
import { StatelessRequests } from "../../../src/transports/stateless-requests.js";
import { type OneShotServer, oneShotServer } from "../../support/one-shot-server.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A host that serves each request with a real SDK server holding one tool. */
const host: SessionHost & { connected: number } = {
  connected: 0,
  logger: silent,
  async connect(transport) {
    this.connected++;
    const server = new McpServer({ name: "stateless-unit", version: "1.0.0" });
    server.registerTool("echo", { description: "echoes" }, async () => ({
      content: [{ type: "text", text: "echoed" }],
    }));
    await server.connect(transport);
  },
};

const requests = new StatelessRequests({
  app: host,
  transportClass: () => StreamableHTTPServerTransport,
  store: undefined,
  enableJsonResponse: true,
  retryIntervalMs: undefined,
  principalOf: () => undefined,
});
let server: OneShotServer;
let shuttingDown = false;
beforeAll(async () => {
  server = await oneShotServer(async (req, res) => {
    const text = await new Promise<string>((resolve) => {
      let body = "";
      req.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on("end", () => resolve(body));
    });
    await requests.serve(req, res, text === "" ? undefined : JSON.parse(text), shuttingDown);
  });
});
afterAll(async () => {
  await requests.close();
  await server.close();
});

const post = (body: unknown) =>
  server.send({
    body: JSON.stringify(body),
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    },
  });

describe("StatelessRequests", () => {
  it("serves each POST with a fresh transport and server, and closes it once answered", async () => {
    const before = host.connected;
    const listed = await post({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(listed.status).toBe(200);
    expect(listed.headers["mcp-session-id"]).toBeUndefined();
    expect(JSON.parse(listed.body).result.tools.map((t: { name: string }) => t.name)).toEqual(["echo"]);
    const called = await post({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "echo", arguments: {} },
    });
    expect(JSON.parse(called.body).result.content).toEqual([{ type: "text", text: "echoed" }]);
    expect(host.connected - before).toBe(2);
    await expect.poll(() => requests.inFlight).toBe(0);
  });

  it("refuses GET without Last-Event-ID, GET with nothing to resume from, and DELETE, with 405 and Allow: POST", async () => {
    const plain = await server.send({ method: "GET", headers: { accept: "text/event-stream" } });
    expect([plain.status, plain.headers.allow]).toEqual([405, "POST"]);
    expect(JSON.parse(plain.body).error.message).toMatch(/stateless and keeps no stream open/);
    const resume = await server.send({
      method: "GET",
      headers: { accept: "text/event-stream", "last-event-id": "s|1-0" },
    });
    expect(resume.status).toBe(405);
    expect(JSON.parse(resume.body).error.message).toMatch(/configure eventStore/);
    const del = await server.send({ method: "DELETE" });
    expect([del.status, JSON.parse(del.body).error.message]).toEqual([
      405,
      "Method not allowed: this server is stateless; there is no session to end",
    ]);
  });

  it("answers 503 to a POST while shutting down, without connecting a server", async () => {
    const before = host.connected;
    shuttingDown = true;
    try {
      const reply = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" });
      expect([reply.status, JSON.parse(reply.body).error.message]).toEqual([
        503,
        "Server is shutting down; connect again later",
      ]);
    } finally {
      shuttingDown = false;
    }
    expect(host.connected).toBe(before);
  });
});
