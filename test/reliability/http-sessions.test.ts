/**
 * Issue 13, findings 2, 3 and 5, and the session-ownership item of 11: HTTP sessions are
 * bounded (memory of the resumable-stream store, count, idle life), a failed initialize
 * leaves nothing behind, and a session serves only the principal that opened it.
 * Loopback only; every test bounded well under 15 s.
 */
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  request,
  type Server,
} from "node:http";
import type { AddressInfo } from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import {
  LOGGER,
  type Logger,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  MemoryEventStore,
  Resource,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
// Not exported from the package entry yet: imported from its module.
import { EventStoreBudget } from "../../src/transports/memory-event-store.js";
import { type Deferred, deferred } from "../support/gates.js";

// ---------------------------------------------------------------------------------------------
// The module under test
// ---------------------------------------------------------------------------------------------

/** 4.9 MB of text: the resource of finding 2. */
const BIG_TEXT = "0123456789abcdef".repeat(Math.ceil(4_900_000 / 16)).slice(0, 4_900_000);
const MiB = 1024 * 1024;

/** Resolved by `held` when it starts; it then waits for `release`. */
let heldStarted: Deferred = deferred();
let release: Deferred = deferred();

@McpService()
class SessionProbe {
  @Tool({ description: "Echo the text back", input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return { text };
  }

  @Tool({ description: "Report the caller's owner" })
  whoami(_input: unknown, ctx: ToolContext) {
    return { owner: ctx.owner };
  }

  @Tool({ description: "Wait for the test to release it" })
  async held(_input: unknown, ctx: ToolContext) {
    heldStarted.resolve();
    await Promise.race([
      release.promise,
      new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true })),
    ]);
    return { released: true };
  }

  @Resource("big://doc", { mimeType: "text/plain", description: "A 4.9 MB document" })
  big() {
    // A fresh string per read, like a file read from disk: nothing shared with the last read.
    return Buffer.from(BIG_TEXT, "latin1").toString("latin1");
  }
}

@McpModule({ services: [SessionProbe] })
class SessionModule {}

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

const apps: McpApp[] = [];
const servers: Server[] = [];
const clients: Client[] = [];

async function createApp(options: { principalOf?: (auth: AuthInfo) => string } = {}) {
  const { logger, errors } = recordingLogger();
  const app = await McpFactory.create(SessionModule, {
    name: "sessions",
    version: "1",
    providers: [{ provide: LOGGER, useValue: logger }],
    ...options,
  });
  apps.push(app);
  return { app, errors };
}

afterEach(async () => {
  release.resolve();
  await Promise.allSettled(clients.splice(0).map((c) => c.close()));
  await Promise.allSettled(apps.splice(0).map((a) => a.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const ACCEPT = "application/json, text/event-stream";

async function connect(url: string, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "sessions-test", version: "1" });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, sessionId: transport.sessionId as string };
}

const initializeBody = (id = 1) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });

const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });

/** A POST over plain node:http (keep-alive), answered as status, headers and body. */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent: keepAlive,
        headers: {
          "content-type": "application/json",
          accept: ACCEPT,
          "content-length": String(Buffer.byteLength(body)),
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Asserts a JSON-RPC error body (never HTML, never a stack) and returns its error. */
async function jsonRpcError(res: Response, status: number): Promise<{ code: number; message: string }> {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe("2.0");
  expect(body.error.message).not.toMatch(/\n\s+at /);
  return body.error;
}

/** A garbage collector: `global.gc` under --expose-gc, else one exposed at run time. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

/** JS heap plus external memory (large strings made from buffers live outside the heap), after GC. */
function heapAfterGc(gc: () => void): number {
  for (let i = 0; i < 3; i++) gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** Reads the SSE events of a response until it ends. */
async function sseEvents(res: Response): Promise<Array<{ id?: string; data: string }>> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const event: { id?: string; data: string } = { data: "" };
      for (const line of block.split("\n")) {
        if (line.startsWith("id: ")) event.id = line.slice(4);
        else if (line.startsWith("data: ")) event.data += line.slice(6);
      }
      return event;
    });
}

// ---------------------------------------------------------------------------------------------
// Finding 2: the resumable-stream store is bounded in bytes
// ---------------------------------------------------------------------------------------------

describe("the resumable-stream store of a session", () => {
  it("stays under its 16 MiB default while one session reads a 4.9 MB resource 60 times", async () => {
    const gc = collector();
    const { app, errors } = await createApp();
    const { url } = await app.listen({ transport: "http", port: 0 });
    const { client } = await connect(url);
    await client.readResource({ uri: "big://doc" });
    const heapBefore = heapAfterGc(gc);

    let peak = 0;
    for (let i = 0; i < 60; i++) {
      const read = await client.readResource({ uri: "big://doc" });
      expect((read.contents[0] as { text: string }).text.length).toBe(BIG_TEXT.length);
      peak = Math.max(peak, app.stats().eventStoreBytes);
    }
    const heapGrowth = heapAfterGc(gc) - heapBefore;
    console.info(
      `[figures] 60 reads of 4.9 MB: store peak ${(peak / MiB).toFixed(1)} MiB, heap growth after GC ${(heapGrowth / MiB).toFixed(1)} MiB`,
    );

    // The heap: at most the cap plus slack, where an unbounded store pinned 291 MB.
    expect(heapGrowth).toBeLessThan(16 * MiB + 24 * MiB);
    // The store's own accounting: never over the cap, yet it keeps what fits (resumption works).
    expect(peak).toBeLessThanOrEqual(16 * MiB);
    expect(app.stats().eventStoreBytes).toBeGreaterThan(4_900_000);
    expect(errors).toEqual([]);
  });

  it("keeps the stores of all sessions within eventStoreTotalBytes", async () => {
    const { app } = await createApp();
    const { url } = await app.listen({ transport: "http", port: 0, eventStoreTotalBytes: 12 * MiB });
    const sessions = await Promise.all([connect(url), connect(url), connect(url)]);
    let peak = 0;
    for (let round = 0; round < 4; round++) {
      await Promise.all(sessions.map(({ client }) => client.readResource({ uri: "big://doc" })));
      peak = Math.max(peak, app.stats().eventStoreBytes);
    }
    expect(peak).toBeLessThanOrEqual(12 * MiB);
    expect(peak).toBeGreaterThan(4_900_000);
  });

  it("refuses a resume whose next events were dropped with a 400 JSON-RPC error, not a replay with a gap", async () => {
    const { app, errors } = await createApp();
    const { url } = await app.listen({ transport: "http", port: 0, eventStoreMaxBytes: 6 * MiB });
    const init = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT },
      body: initializeBody(),
    });
    await init.text();
    const headers = {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-session-id": init.headers.get("mcp-session-id") as string,
      "mcp-protocol-version": "2025-11-25",
    };
    await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    const read = (id: number) =>
      fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "resources/read", params: { uri: "big://doc" } }),
      });

    // The first read's priming event: a client that saw only it would resume after it.
    const first = await sseEvents(await read(10));
    const priming = first[0]?.id as string;
    expect(priming).toBeTruthy();
    // Two more reads push the first answer (4.9 MB) out of the 6 MiB store.
    await (await read(11)).text();
    const third = await sseEvents(await read(12));
    const lastPriming = third[0]?.id as string;

    const resume = (lastEventId: string) =>
      fetch(url, {
        method: "GET",
        headers: { ...headers, accept: "text/event-stream", "last-event-id": lastEventId },
      });
    const refused = await jsonRpcError(await resume(priming), 400);
    expect(refused.message).toMatch(/no longer kept/);

    // A resume whose next events are still kept replays them.
    const ctl = new AbortController();
    const replay = await fetch(url, {
      method: "GET",
      headers: { ...headers, accept: "text/event-stream", "last-event-id": lastPriming },
      signal: ctl.signal,
    });
    expect(replay.status).toBe(200);
    const reader = (replay.body as ReadableStream<Uint8Array>).getReader();
    let received = "";
    while (!received.includes('"id":12')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    ctl.abort();
    expect(received).toContain('"id":12');
    expect(errors).toEqual([]);
  });

  it("MemoryEventStore: drops oldest first, shares a budget, and never resumes across a gap", async () => {
    const message = (n: number) => ({
      jsonrpc: "2.0" as const,
      method: "notifications/message",
      // Every message the same size: n in three digits.
      params: { n: String(n).padStart(3, "0"), pad: "x".repeat(90) },
    });
    const size = Buffer.byteLength(JSON.stringify(message(1)));
    const budget = new EventStoreBudget(size * 4);
    const a = new MemoryEventStore({ maxBytes: size * 3, budget });
    const b = new MemoryEventStore({ maxBytes: size * 3, budget });

    const ids: string[] = [];
    for (let n = 1; n <= 4; n++) ids.push(await a.storeEvent("s1", message(n)));
    expect(a.size).toBe(3);
    expect(a.bytes).toBe(size * 3);
    // The first event is gone: resuming after it would skip nothing, but after none of it is possible.
    expect(a.canResumeAfter(ids[0] as string)).toBe(true);
    expect(await a.getStreamIdForEventId(ids[1] as string)).toBe("s1");

    // b's second event pushes the shared total over 4: the largest store (a) gives up its oldest.
    await b.storeEvent("t1", message(10));
    expect(a.size).toBe(3);
    await b.storeEvent("t1", message(11));
    expect(budget.usedBytes).toBe(size * 4);
    expect([a.size, b.size]).toEqual([2, 2]);
    expect(a.bytes + b.bytes).toBe(budget.usedBytes);
    // ids[1] was evicted after ids[0]: resuming after ids[0] would now leave a gap.
    expect(a.canResumeAfter(ids[0] as string)).toBe(false);
    expect(await a.getStreamIdForEventId(ids[0] as string)).toBeUndefined();

    const replayed: number[] = [];
    await a.replayEventsAfter(ids[2] as string, {
      send: async (_id, m) => {
        replayed.push(Number((m as unknown as { params: { n: string } }).params.n));
      },
    });
    expect(replayed).toEqual([4]);

    // A message larger than the store is sent but not kept: no resume from before it.
    const before = await a.storeEvent("s1", message(5));
    await a.storeEvent("s1", { jsonrpc: "2.0", method: "big", params: { pad: "y".repeat(size * 4) } });
    expect(a.canResumeAfter(before)).toBe(false);

    a.dispose();
    b.dispose();
    expect(budget.usedBytes).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Finding 3: a failed initialize leaves no session
// ---------------------------------------------------------------------------------------------

describe("failed initializes", () => {
  it("500 initializes refused by the SDK (406 wrong Accept, 415 wrong content type) leave 0 sessions", async () => {
    const { app, errors } = await createApp();
    const { url } = await app.listen({ transport: "http", port: 0 });
    const statuses = new Map<number, number>();
    const attempt = async (i: number) => {
      const wrongAccept = i % 2 === 0;
      const res = await fetch(url, {
        method: "POST",
        headers: wrongAccept
          ? { "content-type": "application/json", accept: "application/json" }
          : { "content-type": "text/plain", accept: ACCEPT },
        body: initializeBody(i),
      });
      const error = await jsonRpcError(res, wrongAccept ? 406 : 415);
      expect(error.code).toBe(-32000);
      expect(res.headers.get("mcp-session-id")).toBeNull();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    };
    for (let batch = 0; batch < 10; batch++)
      await Promise.all(Array.from({ length: 50 }, (_, i) => attempt(batch * 50 + i)));

    expect(Object.fromEntries(statuses)).toEqual({ 406: 250, 415: 250 });
    expect(app.stats().sessions).toBe(0);
    // The handler still opens sessions normally.
    const { client } = await connect(url);
    expect(await client.callTool({ name: "echo", arguments: { text: "ok" } })).toMatchObject({
      structuredContent: { text: "ok" },
    });
    expect(app.stats().sessions).toBe(1);
    expect(errors).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Finding 5: idle timeout and session cap
// ---------------------------------------------------------------------------------------------

describe("idle sessions and the session cap", () => {
  it("closes a session idle longer than sessionIdleTimeoutMs, never one with a request open", async () => {
    const { app, errors } = await createApp();
    const { url } = await app.listen({ transport: "http", port: 0, sessionIdleTimeoutMs: 200 });
    const gone = await connect(url);
    const busy = await connect(url);
    await gone.client.callTool({ name: "echo", arguments: { text: "hi" } });
    // The busy session has a call open for longer than the timeout.
    heldStarted = deferred();
    release = deferred();
    const held = busy.client.callTool({ name: "held", arguments: {} });
    await heldStarted.promise;

    // The SDK client's close() sends no DELETE: only the idle timeout can reclaim the session.
    const closedAt = Date.now();
    await gone.client.close();
    await vi.waitFor(() => expect(app.stats().sessions).toBe(1), { timeout: 5000, interval: 20 });
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(150);

    const stale = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: ACCEPT,
        "mcp-session-id": gone.sessionId,
        "mcp-protocol-version": "2025-11-25",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/list" }),
    });
    expect((await jsonRpcError(stale, 404)).code).toBe(-32001);

    // The busy session survived the same wait, and its idle clock starts over after each request.
    release.resolve();
    expect(await held).toMatchObject({ structuredContent: { released: true } });
    expect(await busy.client.callTool({ name: "echo", arguments: { text: "still here" } })).toMatchObject({
      structuredContent: { text: "still here" },
    });
    expect(errors).toEqual([]);
  });

  it("answers the initialize beyond maxSessions with 503 and a JSON-RPC error", async () => {
    const { app, errors } = await createApp();
    const { url } = await app.listen({ transport: "http", port: 0, maxSessions: 3 });
    const open = [await connect(url), await connect(url), await connect(url)];
    expect(app.stats().sessions).toBe(3);

    const refused = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT },
      body: initializeBody(),
    });
    const error = await jsonRpcError(refused, 503);
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/maxSessions/);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    await expect(connect(url)).rejects.toThrow();
    expect(app.stats().sessions).toBe(3);

    // Ending one (DELETE) makes room.
    await open[0]?.transport.terminateSession();
    const again = await connect(url);
    expect(await again.client.callTool({ name: "echo", arguments: { text: "room" } })).toMatchObject({
      structuredContent: { text: "room" },
    });
    expect(errors).toEqual([]);
  });

  it("reclaims the sessions of 2,000 clients that went away without DELETE, heap roughly flat", async () => {
    const gc = collector();
    const { app, errors } = await createApp();
    const { url } = await app.listen({
      transport: "http",
      port: 0,
      // Short, yet longer than the gap between one client's requests while 50 run at once in this process.
      sessionIdleTimeoutMs: 1000,
      maxSessions: 2500,
    });
    // One validator for every SDK client: compiling one per client only slows the test down.
    const jsonSchemaValidator = new AjvJsonSchemaValidator();
    const sdkClient = async () => {
      const client = new Client({ name: "churn", version: "1" }, { jsonSchemaValidator });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      // The SDK client's close() sends no DELETE.
      await client.close();
    };
    // What a client does on the wire before it vanishes (crashes, or stops without DELETE),
    // over plain node:http: several times cheaper than an SDK client in this process.
    const rawClient = async () => {
      const init = await rawPost(url, {}, initializeBody());
      expect(init.status).toBe(200);
      const sessionId = init.headers["mcp-session-id"] as string;
      const initialized = await rawPost(
        url,
        { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
        JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      );
      expect(initialized.status).toBe(202);
    };
    const churn = async (count: number, concurrency: number) => {
      for (let done = 0; done < count; done += concurrency) {
        await Promise.all(
          Array.from({ length: Math.min(concurrency, count - done) }, (_, i) =>
            // One in twenty is a real SDK client.
            (done + i) % 20 === 0 ? sdkClient() : rawClient(),
          ),
        );
      }
    };
    // Warm up (JIT, pools) gently, then measure the heap with no session left.
    await churn(100, 10);
    await vi.waitFor(() => expect(app.stats().sessions).toBe(0), { timeout: 5000, interval: 25 });
    const heapBefore = heapAfterGc(gc);

    const started = Date.now();
    await churn(2000, 50);
    const churnMs = Date.now() - started;
    const liveAfterChurn = app.stats().sessions;
    await vi.waitFor(() => expect(app.stats().sessions).toBe(0), { timeout: 5000, interval: 25 });
    const reclaimedMs = Date.now() - started;
    const heapGrowth = heapAfterGc(gc) - heapBefore;
    console.info(
      `[figures] 2,000 clients gone without DELETE (100 SDK, 1,900 raw) in ${churnMs} ms: ${liveAfterChurn} sessions live right after, 0 after ${reclaimedMs} ms; heap growth after GC ${(heapGrowth / MiB).toFixed(2)} MiB`,
    );
    expect(heapGrowth).toBeLessThan(6 * MiB);
    expect(errors).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Finding 11 (part): a session serves only the principal that opened it
// ---------------------------------------------------------------------------------------------

describe("session ownership", () => {
  const TOKENS: Record<string, string> = { "token-alice": "alice", "token-bob": "bob" };

  /** Mounts the handler behind a bearer-token middleware that sets `req.auth`. */
  async function serveWithAuth(app: McpApp): Promise<string> {
    const handler = app.httpHandler();
    const server = createServer((req: IncomingMessage & { auth?: AuthInfo }, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      const clientId = token ? TOKENS[token] : undefined;
      if (token && clientId) req.auth = { token, clientId, scopes: [] };
      void handler(req, res);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  it("a DELETE or a call by another principal (or none) answers 404 and the session survives", async () => {
    const { app, errors } = await createApp();
    const url = await serveWithAuth(app);
    const alice = await connect(url, { authorization: "Bearer token-alice" });
    expect(await alice.client.callTool({ name: "whoami", arguments: {} })).toMatchObject({
      structuredContent: { owner: "principal:alice" },
    });
    const onSession = (auth?: string) => ({
      "mcp-session-id": alice.sessionId,
      "mcp-protocol-version": "2025-11-25",
      ...(auth ? { authorization: auth } : {}),
    });

    for (const auth of ["Bearer token-bob", undefined]) {
      const deleted = await fetch(url, { method: "DELETE", headers: onSession(auth) });
      expect((await jsonRpcError(deleted, 404)).code).toBe(-32001);
      const call = await fetch(url, {
        method: "POST",
        headers: { ...onSession(auth), "content-type": "application/json", accept: ACCEPT },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { name: "whoami", arguments: {} },
        }),
      });
      await jsonRpcError(call, 404);
      const stream = await fetch(url, {
        method: "GET",
        headers: { ...onSession(auth), accept: "text/event-stream" },
      });
      await jsonRpcError(stream, 404);
    }

    // Alice's session is untouched, and Alice herself may end it.
    expect(app.stats().sessions).toBe(1);
    expect(await alice.client.callTool({ name: "echo", arguments: { text: "mine" } })).toMatchObject({
      structuredContent: { text: "mine" },
    });
    const own = await fetch(url, { method: "DELETE", headers: onSession("Bearer token-alice") });
    expect(own.status).toBe(200);
    expect(app.stats().sessions).toBe(0);
    expect(errors).toEqual([]);
  });

  it("compares principals with the app's principalOf", async () => {
    // Two tokens of one user (a refreshed token) are one principal.
    const { app } = await createApp({ principalOf: (auth) => String(auth.extra?.user) });
    const handler = app.httpHandler();
    const server = createServer((req: IncomingMessage & { auth?: AuthInfo }, res) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (token) req.auth = { token, clientId: token, scopes: [], extra: { user: token.split("-")[0] } };
      void handler(req, res);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;

    const carol = await connect(url, { authorization: "Bearer carol-1" });
    const headers = {
      "content-type": "application/json",
      accept: ACCEPT,
      "mcp-session-id": carol.sessionId,
      "mcp-protocol-version": "2025-11-25",
    };
    const call = (authorization: string) =>
      fetch(url, {
        method: "POST",
        headers: { ...headers, authorization },
        body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
      });
    const refreshed = await call("Bearer carol-2");
    expect(refreshed.status).toBe(200);
    await refreshed.text();
    await jsonRpcError(await call("Bearer dave-1"), 404);
  });
});
