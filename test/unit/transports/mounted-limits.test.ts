import { createServer, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Logger } from "../../../src/logging/logger.js";
import type { HttpHandler } from "../../../src/transports/http-handler.js";
import { limitMounted } from "../../../src/transports/mounted-limits.js";

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A front door that answers 200 once the body is in, and counts what it served. */
function fakeFrontDoor() {
  const served: string[] = [];
  const handler = (async (req, res) => {
    let body = "";
    try {
      for await (const chunk of req) body += chunk;
    } catch {
      return; // the connection was cut (a timeout): nothing to serve
    }
    served.push(body);
    res.end("ok");
  }) as HttpHandler;
  handler.close = async () => {};
  handler.stats = () => ({ sessions: 0, eventStoreBytes: 0 });
  return { handler, served };
}

async function serve(handler: HttpHandler, attach?: (server: Server) => void): Promise<number> {
  const server = createServer((req, res) => void handler(req, res));
  attach?.(server);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

async function open(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  sockets.push(socket);
  await new Promise((resolve) => socket.once("connect", resolve));
  return socket;
}

/** Everything the server sends on `socket` until it closes it. */
function heard(socket: Socket): Promise<string> {
  let text = "";
  socket.on("data", (chunk) => (text += chunk));
  return new Promise((resolve) => socket.once("close", () => resolve(text)));
}

const request = (body: string) =>
  `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`;

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

describe("limitMounted", () => {
  it("refuses a connection beyond maxConnections from the first one when attached, before its request is read", async () => {
    const { handler, served } = fakeFrontDoor();
    const mounted = limitMounted(handler, { maxConnections: 1 }, logger);
    const port = await serve(mounted, (server) => mounted.attach(server));
    const first = await open(port);
    const answered = new Promise<string>((resolve) => first.once("data", (chunk) => resolve(String(chunk))));
    first.write(request("a"));
    expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
    const second = await open(port);
    const refusal = heard(second);
    second.write(request("b"));
    const text = await refusal;
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text).toContain("maxConnections");
    expect(served).toEqual(["a"]);
  });

  it("answers 408 to headers that do not finish within headersTimeoutMs", async () => {
    const { handler } = fakeFrontDoor();
    const mounted = limitMounted(handler, { headersTimeoutMs: 100 }, logger);
    const port = await serve(mounted, (server) => mounted.attach(server));
    const socket = await open(port);
    const answer = heard(socket);
    socket.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    expect(await answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("answers 408 to a body that does not finish within requestTimeoutMs, without attaching", async () => {
    const { handler, served } = fakeFrontDoor();
    const port = await serve(limitMounted(handler, { requestTimeoutMs: 150 }, logger));
    const socket = await open(port);
    const answer = heard(socket);
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nabc`);
    expect(await answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(served).toEqual([]);
  });

  it("finds its server at the first request: later connections beyond the cap are refused", async () => {
    const { handler, served } = fakeFrontDoor();
    const port = await serve(limitMounted(handler, { maxConnections: 1 }, logger));
    const first = await open(port);
    const answered = new Promise<string>((resolve) => first.once("data", (chunk) => resolve(String(chunk))));
    first.write(request("a"));
    expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
    const second = await open(port);
    const refusal = heard(second);
    second.write(request("b"));
    expect(await refusal).toMatch(/^HTTP\/1\.1 503 /);
    expect(served).toEqual(["a"]);
  });

  it("answers 503 with Retry-After to a request on a connection beyond the cap that came before it watched", async () => {
    const { handler, served } = fakeFrontDoor();
    const port = await serve(limitMounted(handler, { maxConnections: 1 }, logger));
    const first = await open(port);
    const second = await open(port);
    const answered = new Promise<string>((resolve) => first.once("data", (chunk) => resolve(String(chunk))));
    first.write(request("a"));
    expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
    const refusal = heard(second);
    second.write(request("b"));
    const text = await refusal;
    expect(text).toMatch(/^HTTP\/1\.1 503 /);
    expect(text.toLowerCase()).toContain("retry-after: 1");
    expect(text).toContain("Too many connections: 1 are open (maxConnections); retry later");
    expect(served).toEqual(["a"]);
  });

  it("refuses a limit that is not a number >= 1, naming it", () => {
    const { handler } = fakeFrontDoor();
    expect(() => limitMounted(handler, { maxConnections: 0 }, logger)).toThrow("maxConnections");
  });
});
