import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema, type Progress } from "@modelcontextprotocol/sdk/types.js";
import {
  LOGGER,
  type Logger,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  MemoryEventStore,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deferred, deferredByKey } from "../support/gates.js";

// ---------------------------------------------------------------------------------------------
// The module under test
// ---------------------------------------------------------------------------------------------

// Real time only where time itself is exercised (a slow call, a slow store, deadlines), never to order events.
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolved by `slow` when it starts (a test replaces it before a call). */
let slowStarted = deferred();

/** Resolved, by JSON-RPC id, once an event store of the app under test has stored that response. */
let storedResponses = deferredByKey<string | number>();

/** The default store (`MemoryEventStore`), telling the test when it has stored a response. */
class ObservedEventStore extends MemoryEventStore {
  override async storeEvent(...args: Parameters<MemoryEventStore["storeEvent"]>) {
    const eventId = await super.storeEvent(...args);
    const [, message] = args;
    const isResponse = "result" in message || "error" in message;
    if (isResponse && "id" in message && message.id !== undefined) storedResponses(message.id).resolve();
    return eventId;
  }
}

/** Lets a test hold the `gated` tool open until it calls `release()`. */
let gate: { promise: Promise<void>; release: () => void } = newGate();
function newGate() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

@McpService()
class ProbeService {
  @Tool({ description: "Echo the text back", input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return { text };
  }

  @Tool({ description: "Report the caller's session and owner" })
  whoami(_input: unknown, ctx: ToolContext) {
    return { sessionId: ctx.sessionId, owner: ctx.owner };
  }

  @Tool({ description: "Count to n, reporting progress", input: { n: z.number().int().min(1).max(20) } })
  async count({ n }: { n: number }, ctx: ToolContext) {
    for (let i = 1; i <= n; i++) await ctx.progress(i, n);
    return { n };
  }

  @Tool({ description: "Log a message at info and at error", input: { message: z.string() } })
  async shout({ message }: { message: string }, ctx: ToolContext) {
    await ctx.log.info(`info: ${message}`);
    await ctx.log.error(`error: ${message}`);
    return { ok: true };
  }

  @Tool({ description: "Sleep, then answer", input: { ms: z.number().int().min(0).max(5000) } })
  async slow({ ms }: { ms: number }) {
    slowStarted.resolve();
    // The call really takes `ms`: the drain tests check that close() waits that long for it.
    await sleep(ms);
    return { slept: ms };
  }

  @Tool({ description: "Log, then wait for the test to release the gate" })
  async gated(_input: unknown, ctx: ToolContext) {
    await ctx.log.info("gated: started");
    await gate.promise;
    return { released: true };
  }
}

@McpModule({ services: [ProbeService] })
class ProbeModule {}

/** A logger that records what the framework reports, so tests can assert nothing failed. */
function recordingLogger() {
  const errors: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn() {},
    error(message, details) {
      errors.push(`${message} ${details instanceof Error ? details.message : String(details ?? "")}`);
    },
  };
  return { logger, errors };
}

async function createApp(): Promise<{ app: McpApp; errors: string[] }> {
  const { logger, errors } = recordingLogger();
  const app = await McpFactory.create(ProbeModule, {
    name: "t",
    version: "1",
    providers: [{ provide: LOGGER, useValue: logger }],
  });
  return { app, errors };
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const ACCEPT = "application/json, text/event-stream";

async function connectClient(url: string, name = "http-test") {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name, version: "1" });
  await client.connect(transport);
  return { client, transport };
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A plain node:http request, so tests can set any header (Host, Origin) and see the raw answer. */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; chunked?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? "POST", headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        // No Content-Length: the server must stop reading once the stream passes its limit.
        const half = Math.ceil(options.body.length / 2);
        req.write(options.body.slice(0, half));
        req.end(options.body.slice(half));
      } else {
        req.end(options.body);
      }
    } else {
      req.end();
    }
  });
}

function jsonPostHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { "content-type": "application/json", accept: ACCEPT, ...extra };
}

const initializeBody = (id = 1) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });

const listToolsBody = (id = 2) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: {} });

/** Asserts a JSON-RPC error body (never HTML) and returns its error. */
function expectJsonRpcError(res: RawResponse, status: number): { code: number; message: string } {
  expect(res.status).toBe(status);
  expect(String(res.headers["content-type"])).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as {
    jsonrpc: string;
    id: unknown;
    error: { code: number; message: string };
  };
  expect(body.jsonrpc).toBe("2.0");
  expect(body.id).toBeNull();
  expect(typeof body.error.code).toBe("number");
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error;
}

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Reads SSE events from a fetch response until `stop` returns true for the events so far
 * (or the stream ends), without waiting for the stream to close.
 */
async function readSse(
  response: Response,
  stop: (events: SseEvent[]) => boolean,
  timeoutMs = 5000,
): Promise<SseEvent[]> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = "";
  const deadline = Date.now() + timeoutMs;
  try {
    while (!stop(events)) {
      if (Date.now() > deadline) throw new Error(`SSE timeout; got ${JSON.stringify(events)}`);
      // A deadline, not an ordering: a stream that stops short fails the test instead of hanging it.
      const timer = sleep(Math.max(0, deadline - Date.now())).then(() => ({ done: true, value: undefined }));
      const { done, value } = await Promise.race([reader.read(), timer]);
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { data: "" };
        const data: string[] = [];
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "id") event.id = value;
          else if (field === "event") event.event = value;
          else if (field === "data") data.push(value);
        }
        event.data = data.join("\n");
        if (event.id !== undefined || event.data !== "") events.push(event);
        end = buffer.indexOf("\n\n");
      }
    }
  } finally {
    reader.releaseLock();
  }
  return events;
}

/** JSON-RPC messages carried by SSE events (skipping priming events, whose data is empty). */
function messagesOf(events: SseEvent[]): Array<Record<string, any>> {
  return events.filter((e) => e.data.trim() !== "").map((e) => JSON.parse(e.data));
}

function structured(result: unknown): Record<string, unknown> {
  return (result as { structuredContent: Record<string, unknown> }).structuredContent;
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe("Streamable HTTP transport (app.listen)", () => {
  let app: McpApp;
  let errors: string[];
  let url: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    ({ app, errors } = await createApp());
    url = (await app.listen({ transport: "http", port: 0, eventStore: () => new ObservedEventStore() }))
      .url as string;
  });

  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  });

  afterAll(async () => {
    await app.close();
    // No request may have ended in the handler's catch-all ("HTTP request failed").
    expect(errors).toEqual([]);
  });

  async function connect(name?: string) {
    const connected = await connectClient(url, name);
    clients.push(connected.client);
    return connected;
  }

  it("port 0 gives a real loopback URL with the default path", () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
  });

  it("lists tools and calls one with the SDK client", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["count", "echo", "gated", "shout", "slow", "whoami"]);
    const result = await client.callTool({ name: "echo", arguments: { text: "hello over http" } });
    expect(result.isError).toBeFalsy();
    expect(structured(result)).toEqual({ text: "hello over http" });
  });

  it("gives two clients different sessions, and each call sees its own session id and owner", async () => {
    const a = await connect("a");
    const b = await connect("b");
    expect(a.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    expect(app.stats().sessions).toBeGreaterThanOrEqual(2);

    const [fromA, fromB] = await Promise.all([
      a.client.callTool({ name: "whoami", arguments: {} }),
      b.client.callTool({ name: "whoami", arguments: {} }),
    ]);
    expect(structured(fromA)).toEqual({
      sessionId: a.transport.sessionId,
      owner: `session:${a.transport.sessionId}`,
    });
    expect(structured(fromB)).toEqual({
      sessionId: b.transport.sessionId,
      owner: `session:${b.transport.sessionId}`,
    });
  });

  it("streams progress notifications to a call that asked for them", async () => {
    const { client } = await connect();
    const progress: Progress[] = [];
    const result = await client.callTool({ name: "count", arguments: { n: 4 } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(structured(result)).toEqual({ n: 4 });
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);
  });

  it("sends logging notifications, and logging/setLevel filters them for that session only", async () => {
    const quiet = await connect("quiet");
    const chatty = await connect("chatty");
    const received = { quiet: [] as string[], chatty: [] as string[] };
    quiet.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      received.quiet.push(`${n.params.level}|${String(n.params.data)}`);
    });
    chatty.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      received.chatty.push(`${n.params.level}|${String(n.params.data)}`);
    });

    // Before setLevel every level arrives.
    await quiet.client.callTool({ name: "shout", arguments: { message: "one" } });
    expect(received.quiet).toEqual(["info|info: one", "error|error: one"]);

    await quiet.client.setLoggingLevel("error");
    await quiet.client.callTool({ name: "shout", arguments: { message: "two" } });
    await chatty.client.callTool({ name: "shout", arguments: { message: "three" } });

    expect(received.quiet).toEqual(["info|info: one", "error|error: one", "error|error: two"]);
    expect(received.chatty).toEqual(["info|info: three", "error|error: three"]);
  });

  it("answers 400 with a JSON-RPC error to a non-initialize request without Mcp-Session-Id", async () => {
    const res = await rawRequest(url, { headers: jsonPostHeaders(), body: listToolsBody() });
    const error = expectJsonRpcError(res, 400);
    expect(error.message).toMatch(/Mcp-Session-Id/);
  });

  it("answers 404 with a JSON-RPC error to an unknown session id", async () => {
    const res = await rawRequest(url, {
      headers: jsonPostHeaders({ "mcp-session-id": "00000000-0000-0000-0000-000000000000" }),
      body: listToolsBody(),
    });
    const error = expectJsonRpcError(res, 404);
    expect(error.code).toBe(-32001);
    // GET and DELETE with an unknown session are refused the same way.
    for (const method of ["GET", "DELETE"]) {
      const other = await rawRequest(url, {
        method,
        headers: { accept: "text/event-stream", "mcp-session-id": "nope" },
      });
      expectJsonRpcError(other, 404);
    }
  });

  it("answers 404 once the client has terminated its session, and forgets the session", async () => {
    const { client, transport } = await connect();
    const sessionId = transport.sessionId as string;
    await client.listTools();
    const protocolVersion = transport.protocolVersion as string;
    const before = app.stats().sessions;

    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();

    const res = await rawRequest(url, {
      headers: jsonPostHeaders({ "mcp-session-id": sessionId, "mcp-protocol-version": protocolVersion }),
      body: listToolsBody(),
    });
    // Answered by the handler's own session map (the session was forgotten), not by a closed transport.
    expect(expectJsonRpcError(res, 404).message).toMatch(/initialize a new one/);
    expect(app.stats().sessions).toBe(before - 1);
  });

  it("answers 405 with a JSON-RPC error and an Allow header to other methods", async () => {
    const res = await rawRequest(url, { method: "PUT", headers: jsonPostHeaders(), body: "{}" });
    expectJsonRpcError(res, 405);
    expect(res.headers.allow).toBe("GET, POST, DELETE");
  });

  it("answers 400 with a JSON-RPC parse error to a body that is not JSON", async () => {
    const res = await rawRequest(url, { headers: jsonPostHeaders(), body: "{not json" });
    expect(expectJsonRpcError(res, 400).code).toBe(-32700);
  });

  it("refuses a foreign Host header with 403 (DNS rebinding)", async () => {
    const res = await rawRequest(url, {
      headers: jsonPostHeaders({ host: "evil.example" }),
      body: initializeBody(),
    });
    const error = expectJsonRpcError(res, 403);
    expect(error.message).toContain("evil.example");
    const withPort = await rawRequest(url, {
      headers: jsonPostHeaders({ host: `evil.example:${new URL(url).port}` }),
      body: initializeBody(),
    });
    expectJsonRpcError(withPort, 403);
  });

  it("refuses a foreign Origin with 403 and accepts a loopback Origin", async () => {
    const sessionsBefore = app.stats().sessions;
    const evil = await rawRequest(url, {
      headers: jsonPostHeaders({ origin: "http://evil.example" }),
      body: initializeBody(),
    });
    expect(expectJsonRpcError(evil, 403).message).toContain("http://evil.example");
    // A refused request must not have opened a session.
    expect(app.stats().sessions).toBe(sessionsBefore);

    const port = new URL(url).port;
    const local = await rawRequest(url, {
      headers: jsonPostHeaders({ origin: `http://localhost:${port}`, host: `localhost:${port}` }),
      body: initializeBody(),
    });
    expect(local.status).toBe(200);
    const sessionId = local.headers["mcp-session-id"];
    expect(typeof sessionId).toBe("string");
    expect(local.body).toContain('"protocolVersion"');
    expect(app.stats().sessions).toBe(sessionsBefore + 1);
    // Clean up the raw session.
    const deleted = await rawRequest(url, {
      method: "DELETE",
      headers: { "mcp-session-id": sessionId as string, origin: `http://localhost:${port}` },
    });
    expect(deleted.status).toBe(200);
  });

  it("answers 404 with a JSON-RPC error on another path", async () => {
    const other = new URL(url);
    other.pathname = "/not-mcp";
    const res = await rawRequest(other.href, { headers: jsonPostHeaders(), body: initializeBody() });
    expect(expectJsonRpcError(res, 404).message).toContain("/mcp");
    // The query string does not count as part of the path.
    const withQuery = await rawRequest(`${url}?x=1`, { headers: jsonPostHeaders(), body: initializeBody() });
    expect(withQuery.status).toBe(200);
    const sessionId = withQuery.headers["mcp-session-id"] as string;
    await rawRequest(url, { method: "DELETE", headers: { "mcp-session-id": sessionId } });
  });

  it("lets a client resume a broken stream with Last-Event-ID (event store)", async () => {
    gate = newGate();
    storedResponses = deferredByKey();
    const { client, transport } = await connect();
    await client.listTools();
    const headers = {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-session-id": transport.sessionId as string,
      "mcp-protocol-version": transport.protocolVersion as string,
    };

    // Start a call and read until its first notification, then drop the connection.
    const abort = new AbortController();
    const post = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7001, method: "tools/call", params: { name: "gated" } }),
      signal: abort.signal,
    });
    expect(post.status).toBe(200);
    expect(post.headers.get("content-type")).toMatch(/text\/event-stream/);
    const seen = await readSse(post, (events) => messagesOf(events).length >= 1);
    abort.abort();
    const [log] = messagesOf(seen);
    expect(log).toMatchObject({ method: "notifications/message", params: { data: "gated: started" } });
    const lastEventId = seen.at(-1)?.id as string;
    expect(lastEventId).toBeTruthy();

    // The call finishes while the client is away; its answer must be kept for the resume.
    gate.release();
    await storedResponses(7001).promise;

    // Sending the stored answer also released the call's stream (in the same turn, before the
    // server reads another request), whether or not the server had noticed the dropped
    // connection: the resume cannot meet a 409 "stream already has an active connection".
    const resume = new AbortController();
    const replay = await fetch(url, {
      method: "GET",
      headers: { ...headers, accept: "text/event-stream", "last-event-id": lastEventId },
      signal: resume.signal,
    });
    expect(replay?.status).toBe(200);
    const replayed = await readSse(replay, (events) => messagesOf(events).some((m) => m.id === 7001));
    resume.abort();
    const messages = messagesOf(replayed);
    // Only what came after Last-Event-ID: no repeat of the log notification.
    expect(messages.some((m) => m.method === "notifications/message")).toBe(false);
    const answer = messages.find((m) => m.id === 7001);
    expect(answer?.result?.structuredContent).toEqual({ released: true });

    // An event id of this session means nothing to another session (one store per session).
    const other = await connect("other");
    const foreign = await rawRequest(url, {
      method: "GET",
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": other.transport.sessionId as string,
        "last-event-id": lastEventId,
      },
    });
    expectJsonRpcError(foreign, 400);
  });
});

describe("request body limit", () => {
  let app: McpApp;
  let url: string;

  beforeAll(async () => {
    ({ app } = await createApp());
    url = (await app.listen({ transport: "http", port: 0, maxBodyBytes: 10_000 })).url as string;
  });

  afterAll(async () => {
    await app.close();
  });

  it("answers an oversized tools/call with 413 and a JSON-RPC error, with or without Content-Length", async () => {
    const { client, transport } = await connectClient(url);
    try {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "x".repeat(20_000) } },
      });
      const headers = jsonPostHeaders({
        "mcp-session-id": transport.sessionId as string,
        "mcp-protocol-version": transport.protocolVersion as string,
      });
      const declared = await rawRequest(url, { headers, body });
      const error = expectJsonRpcError(declared, 413);
      expect(error.message).toContain("10000");
      const streamed = await rawRequest(url, { headers, body, chunked: true });
      expectJsonRpcError(streamed, 413);

      // The SDK client sees the refusal as an error, and the session still works afterwards.
      await expect(
        client.callTool({ name: "echo", arguments: { text: "x".repeat(20_000) } }),
      ).rejects.toThrow();
      const small = await client.callTool({ name: "echo", arguments: { text: "fits" } });
      expect(structured(small)).toEqual({ text: "fits" });
    } finally {
      await client.close();
    }
  });
});

describe("app.httpHandler() mounted in a plain node:http server", () => {
  let app: McpApp;
  let server: Server;

  afterEach(async () => {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it("serves the SDK client on a custom path", async () => {
    ({ app } = await createApp());
    const handler = app.httpHandler();
    server = createServer((req, res) => {
      if ((req.url ?? "").split("?")[0] === "/custom/mcp") return void handler(req, res);
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not here");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/custom/mcp`;

    const { client, transport } = await connectClient(url);
    expect(transport.sessionId).toBeTruthy();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("whoami");
    const who = await client.callTool({ name: "whoami", arguments: {} });
    expect(structured(who)).toEqual({
      sessionId: transport.sessionId,
      owner: `session:${transport.sessionId}`,
    });
    await client.close();

    // The surrounding server still owns the other paths.
    const elsewhere = await rawRequest(`http://127.0.0.1:${port}/mcp`, {
      headers: jsonPostHeaders(),
      body: initializeBody(),
    });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body).toBe("not here");
  });
});

describe("app.close() over HTTP", () => {
  it("drains a running call, then stops accepting connections", async () => {
    const { app, errors } = await createApp();
    const { url } = (await app.listen({ transport: "http", port: 0 })) as { url: string };
    const { client } = await connectClient(url);
    slowStarted = deferred();
    const call = client.callTool({ name: "slow", arguments: { ms: 300 } });
    await slowStarted.promise;
    expect(app.stats().inFlight).toBe(1);

    const started = Date.now();
    const closing = app.close();
    const result = await call;
    expect(structured(result)).toEqual({ slept: 300 });
    await closing;
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    expect(app.stats()).toMatchObject({ sessions: 0, inFlight: 0 });

    await expect(rawRequest(url, { headers: jsonPostHeaders(), body: initializeBody() })).rejects.toThrow(
      /ECONNREFUSED/,
    );
    await client.close();
    expect(errors).toEqual([]);
  });

  it("drains a running call when the event store is asynchronous (a response is stored before it is sent)", async () => {
    // Like a Redis or database store: every write takes a few milliseconds.
    class SlowEventStore extends MemoryEventStore {
      override async storeEvent(...args: Parameters<MemoryEventStore["storeEvent"]>) {
        // Real latency is the point: the answer is still being stored when close() looks.
        await sleep(5);
        return super.storeEvent(...args);
      }
    }
    const { app, errors } = await createApp();
    const { url } = (await app.listen({
      transport: "http",
      port: 0,
      eventStore: () => new SlowEventStore(),
    })) as { url: string };
    const { client } = await connectClient(url);
    slowStarted = deferred();
    const call = client.callTool({ name: "slow", arguments: { ms: 200 } });
    await slowStarted.promise;
    expect(app.stats().inFlight).toBe(1);

    const closing = app.close();
    // A lost answer leaves the SDK client waiting forever; fail fast instead (a deadline, not an ordering).
    const result = await Promise.race([
      call,
      sleep(3000).then(() => {
        throw new Error("the drained call never got its answer");
      }),
    ]);
    expect(structured(result)).toEqual({ slept: 200 });
    await closing;
    await client.close();
    expect(errors).toEqual([]);
  });
});
