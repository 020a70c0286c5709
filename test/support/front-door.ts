/**
 * A hostile client's tools for the front-door reliability tests: raw 2026-07-28 POSTs with
 * chosen headers (a token, no body), raw TCP sockets that trickle or stop, the server side
 * of a client's socket (to know the server saw it close), and a logger that records.
 */
import { subscribe } from "node:diagnostics_channel";
import { connect, type Socket } from "node:net";
import type { Authenticate, Logger } from "frugal-mcp";
import { envelope2026 } from "./raw-2026.js";

/** Two principals by their test tokens: `Bearer good-alice` is alice, `Bearer good-bob` is bob; anything else nobody. */
export const authenticate: Authenticate = (req) =>
  req.headers.authorization === "Bearer good-alice"
    ? "alice"
    : req.headers.authorization === "Bearer good-bob"
      ? "bob"
      : undefined;

/** A client that answers elicitation forms. */
export const ELICITING = { elicitation: { form: {} } };

/** The headers of a JSON-RPC POST that says nothing of its era. */
export const JSON_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** A 2025-11-25 `initialize` request body. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

/** The headers of a raw 2026-07-28 request for `method` (on `name`), with a bearer `token` if any. */
export function headers2026(method: string, name?: string, token?: string): Record<string, string> {
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(name === undefined ? {} : { "mcp-name": name }),
    ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  };
}

/** The body of a raw 2026-07-28 request: the envelope of a client declaring `capabilities` in `_meta`. */
export function body2026(
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = ELICITING,
): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method,
    params: { _meta: envelope2026(capabilities), ...params },
  });
}

/**
 * The head of a raw POST to `url` with `headers`, announcing `length` body bytes, or a
 * chunked body; the body is the caller's to write (or not).
 */
export function requestHead(
  url: string,
  headers: Record<string, string>,
  length: number | "chunked",
): string {
  const { pathname, host } = new URL(url);
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const framing = length === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${length}`;
  return `POST ${pathname} HTTP/1.1\r\nHost: ${host}\r\n${lines.join("")}${framing}\r\n\r\n`;
}

/** What a raw POST was answered: status, headers, the JSON-RPC result or error (JSON or SSE) and the raw text. */
export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** POSTs `body` (a string, as sent) with `headers`; reads the answer as JSON or as an SSE stream. */
export async function postRaw(url: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const response = await fetch(url, { method: "POST", headers, body });
  const text = await response.text();
  const frames =
    text.trimStart().startsWith("{") || text.trimStart().startsWith("[")
      ? [text]
      : text.split("\n").flatMap((line) => (line.startsWith("data: ") ? [line.slice(6)] : []));
  const messages = frames.flatMap((frame) => {
    try {
      return frame.trim() === "" ? [] : [JSON.parse(frame)];
    } catch {
      return [];
    }
  });
  return {
    status: response.status,
    headers: response.headers,
    body: messages.flat().find((m) => m && ("result" in m || "error" in m)),
    text,
  };
}

/** One raw 2026-07-28 `tools/call` of `name`, as the holder of `token` (none: anonymous). */
export function call2026(
  url: string,
  name: string,
  params: Record<string, unknown> = {},
  token?: string,
): Promise<Answer> {
  return postRaw(
    url,
    body2026("tools/call", { name, arguments: {}, ...params }),
    headers2026("tools/call", name, token),
  );
}

/** A raw TCP connection to `url`'s server, once connected. Push it to `sockets` to destroy it after. */
export async function openSocket(url: string | URL, sockets: Socket[]): Promise<Socket> {
  const { port, hostname } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  socket.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return socket;
}

/** What came on a raw socket: the text, whether it closed, and when (ms after `since`). */
export interface Heard {
  text: string;
  closed: boolean;
  ms: number;
}

/**
 * Reads `socket` until the server closes it, or (with `untilHeaders`) until a response's
 * headers arrived, or `boundMs` passed: whichever comes first. `since` is when the clock
 * started (default now).
 */
export function hear(
  socket: Socket,
  {
    boundMs,
    untilHeaders = false,
    since = performance.now(),
  }: { boundMs: number; untilHeaders?: boolean; since?: number },
): Promise<Heard> {
  return new Promise((resolve) => {
    let text = "";
    const done = (closed: boolean) => {
      clearTimeout(timer);
      resolve({ text, closed, ms: performance.now() - since });
    };
    const timer = setTimeout(() => done(false), Math.max(0, since + boundMs - performance.now()));
    socket.on("data", (chunk) => {
      text += String(chunk);
      if (untilHeaders && text.includes("\r\n\r\n")) done(socket.destroyed);
    });
    socket.once("close", () => done(true));
  });
}

/**
 * The server-side sockets of this process's servers, by the client's port: a test waits
 * for `closedOnServer(client)` to know the server has seen the connection end.
 */
const serverSockets = new Map<number, Socket>();
/** Client ports whose request reached a server of this process, and who waits for one. */
const requested = new Set<number>();
const awaitingRequest = new Map<number, () => void>();
subscribe("net.server.socket", (message) => {
  const socket = (message as { socket: Socket }).socket;
  const port = socket.remotePort;
  if (port === undefined) return;
  serverSockets.set(port, socket);
  socket.once("close", () => {
    if (serverSockets.get(port) === socket) serverSockets.delete(port);
    requested.delete(port);
  });
});

subscribe("http.server.request.start", (message) => {
  const port = (message as { socket: Socket }).socket.remotePort;
  if (port === undefined) return;
  requested.add(port);
  awaitingRequest.get(port)?.();
  awaitingRequest.delete(port);
});

/** Resolves once a server of this process has begun handling a request sent on `client`. */
export function requestArrived(client: Socket): Promise<void> {
  const port = client.localPort as number;
  if (requested.has(port)) return Promise.resolve();
  return new Promise((resolve) => awaitingRequest.set(port, resolve));
}

/** Resolves once the server side of `client` (a socket to a server of this process) has closed. */
export function closedOnServer(client: Socket): Promise<void> {
  const server = client.localPort === undefined ? undefined : serverSockets.get(client.localPort);
  if (!server || server.destroyed) return Promise.resolve();
  return new Promise((resolve) => server.once("close", () => resolve()));
}

/** One line the app logged. */
export interface Logged {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  details: unknown;
}

const STACK = /\n\s+at /;

/** A `LOGGER` that records; `problems()` are the errors and the lines that carry a stack trace. */
export function recordingLogger(): { logger: Logger; lines: Logged[]; problems(): string[] } {
  const lines: Logged[] = [];
  const at = (level: Logged["level"]) => (message: string, details?: unknown) => {
    lines.push({ level, message, details });
  };
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  const stackOf = (details: unknown) =>
    details instanceof Error ? (details.stack ?? "") : typeof details === "string" ? details : "";
  return {
    logger,
    lines,
    problems: () =>
      lines
        .filter(
          (line) => line.level === "error" || (line.level === "warn" && STACK.test(stackOf(line.details))),
        )
        .map(
          (line) => `${line.level}: ${line.message} ${stackOf(line.details) || String(line.details ?? "")}`,
        ),
  };
}

/** A JSON text nesting `leaf` `depth` levels deep in objects (built as text: no recursion here). */
export function nestedJson(depth: number, leaf = '"x"'): string {
  return `${'{"a":'.repeat(depth)}${leaf}${"}".repeat(depth)}`;
}
