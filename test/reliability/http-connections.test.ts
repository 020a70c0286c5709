/**
 * Issue 13, finding 11: no connection cap and no slow-request timeouts on
 * `app.listen({ transport: "http" })`. Now at most `maxConnections` connections are open
 * (one beyond gets `503` with a JSON-RPC error, then is closed, its request never read);
 * a client that trickles its headers (slowloris) or its body is answered `408` and
 * disconnected after `headersTimeoutMs` / `requestTimeoutMs`.
 *
 *   npx vitest run --config vitest.reliability.config.ts test/reliability/http-connections.test.ts
 */
import { connect, type Socket } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type McpApp, McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { afterEach, describe, expect, it, vi } from "vitest";

@McpService()
class PingService {
  @Tool({ description: "Answers pong" })
  pong() {
    return { pong: true };
  }
}

@McpModule({ services: [PingService] })
class PingModule {}

/** Longest a refusal may take to arrive (generous on a loaded machine; the old code never answered). */
const BOUND_MS = 5_000;

const apps: McpApp[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.allSettled(apps.splice(0).map((app) => app.close()));
});

async function serve(options: Record<string, number>): Promise<URL> {
  const app = await McpFactory.create(PingModule, { name: "conn", version: "1.0.0" });
  apps.push(app);
  const { url } = await app.listen({ transport: "http", port: 0, ...options });
  return new URL(url);
}

/** A raw TCP connection, once connected. */
async function open(url: URL): Promise<Socket> {
  const socket = connect(Number(url.port), url.hostname);
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return socket;
}

/** Everything the server sends until it closes the connection, or what came by the bound. */
function untilClosed(socket: Socket): Promise<{ text: string; closed: boolean; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let text = "";
    const timer = setTimeout(
      () => resolve({ text, closed: false, ms: performance.now() - started }),
      BOUND_MS,
    );
    socket.on("data", (chunk) => {
      text += String(chunk);
    });
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ text, closed: true, ms: performance.now() - started });
    });
    socket.on("error", () => {});
  });
}

async function pong(url: URL): Promise<unknown> {
  const client = new Client({ name: "probe", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url));
  try {
    return (await client.callTool({ name: "pong", arguments: {} })).structuredContent;
  } finally {
    await client.close();
  }
}

describe("HTTP connection cap and slow-request timeouts (app.listen)", () => {
  it("answers the connection beyond maxConnections with 503 and a JSON-RPC error, then serves again", async () => {
    const url = await serve({ maxConnections: 3 });
    const held = [await open(url), await open(url), await open(url)];
    const extra = await open(url);
    extra.write(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Length: 2\r\n\r\n{}`);
    const answer = await untilClosed(extra);
    expect(answer.closed, `no answer within ${BOUND_MS} ms: ${answer.text}`).toBe(true);
    expect(answer.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer.text).toMatch(/retry-after: 1/i);
    const body = JSON.parse(answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4));
    expect(body).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Too many connections: 3 are open (maxConnections); retry later" },
    });
    // Once the held connections close, clients are served again (an SDK client uses two or three).
    const gone = held.map((socket) => new Promise((resolve) => socket.once("close", resolve)));
    for (const socket of held) socket.destroy();
    await Promise.all(gone);
    await vi.waitFor(async () => expect(await pong(url)).toEqual({ pong: true }), {
      timeout: BOUND_MS,
      interval: 50,
    });
  });

  it("answers a client trickling its headers (slowloris) with 408 and closes it", async () => {
    const url = await serve({ headersTimeoutMs: 300 });
    const socket = await open(url);
    socket.write(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\n`);
    // One more header byte every 50 ms, never the blank line that ends the headers.
    const trickle = setInterval(() => socket.writable && socket.write("X"), 50);
    const answer = await untilClosed(socket);
    clearInterval(trickle);
    console.log(`[figures] http-connections: slowloris headers closed after ${Math.round(answer.ms)} ms`);
    expect(answer.closed, `still open after ${BOUND_MS} ms`).toBe(true);
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
    expect(await pong(url)).toEqual({ pong: true });
  });

  it("answers a client trickling its body with 408 and closes it", async () => {
    const url = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    const socket = await open(url);
    socket.write(
      `POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{`,
    );
    const trickle = setInterval(() => socket.writable && socket.write(" "), 50);
    const answer = await untilClosed(socket);
    clearInterval(trickle);
    console.log(`[figures] http-connections: slow body closed after ${Math.round(answer.ms)} ms`);
    expect(answer.closed, `still open after ${BOUND_MS} ms`).toBe(true);
    expect(answer.text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("refuses a bad limit at start-up, naming the option", async () => {
    const app = await McpFactory.create(PingModule, { name: "conn", version: "1.0.0" });
    apps.push(app);
    await expect(app.listen({ transport: "http", port: 0, maxConnections: 0 })).rejects.toThrow(
      "HTTP option maxConnections must be a number >= 1, got 0",
    );
    await expect(app.listen({ transport: "http", port: 0, headersTimeoutMs: Number.NaN })).rejects.toThrow(
      "HTTP option headersTimeoutMs must be a number >= 1",
    );
  });
});
