import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../logging/logger.js";

/** Connection and slow-request limits of `app.listen({ transport: "http" })` and `app.httpHandler`. */
export interface ConnectionLimitOptions {
  /**
   * Most open TCP connections at once (default 1,024). A connection beyond it is answered
   * `503` with a JSON-RPC error and `Retry-After`, then closed, before its request is read.
   */
  maxConnections?: number | undefined;
  /**
   * Time a client has to send a request's headers, from the moment it connects (default
   * 10 s). A client that trickles them (slowloris) is answered `408` and disconnected.
   */
  headersTimeoutMs?: number | undefined;
  /**
   * Time a client has to send a whole request, body included (default 30 s); `408` after.
   * It bounds what the client sends only: a long SSE response is not cut by it.
   */
  requestTimeoutMs?: number | undefined;
  /** How long an idle keep-alive connection stays open between requests (default 5 s). */
  keepAliveTimeoutMs?: number | undefined;
}

/** Defaults of `ConnectionLimitOptions`. */
export const CONNECTION_LIMIT_DEFAULTS = Object.freeze({
  maxConnections: 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
});

/** The `node:http` server options that enforce the timeouts (checked about every second). */
export function serverTimeouts(options: ConnectionLimitOptions): {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
} {
  const requestTimeout = positive(
    "requestTimeoutMs",
    options.requestTimeoutMs,
    CONNECTION_LIMIT_DEFAULTS.requestTimeoutMs,
  );
  // Node requires headersTimeout <= requestTimeout.
  const headersTimeout = Math.min(
    positive("headersTimeoutMs", options.headersTimeoutMs, CONNECTION_LIMIT_DEFAULTS.headersTimeoutMs),
    requestTimeout,
  );
  const keepAliveTimeout = positive(
    "keepAliveTimeoutMs",
    options.keepAliveTimeoutMs,
    CONNECTION_LIMIT_DEFAULTS.keepAliveTimeoutMs,
  );
  // Node checks expired requests on this interval (default 30 s): make a timeout mean what it says.
  const connectionsCheckingInterval = Math.max(10, Math.min(1_000, Math.floor(headersTimeout / 4)));
  return { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval };
}

/**
 * Caps open connections on `server`: one beyond `maxConnections` gets a short `503` with a
 * JSON-RPC error body (so a client sees why), then is closed. Node's own
 * `server.maxConnections` would drop it without a word.
 */
export function capConnections(server: Server, options: ConnectionLimitOptions, logger: Logger): void {
  const cap = new ConnectionCap(maxConnectionsOf(options), logger);
  // node:http serves a connection from its own "connection" listener: call it only for the
  // connections kept, so a refused one's request is never parsed, let alone handled.
  const serveHttp = server.listeners("connection") as Array<(socket: Socket) => void>;
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    if (!cap.admit(socket)) {
      socket.on("error", () => {});
      socket.setTimeout(2_000, () => socket.destroy());
      socket.resume(); // what the client sends is read and dropped, so it sees the answer
      socket.end(tooManyConnections(cap.max));
      return;
    }
    for (const listener of serveHttp) listener.call(server, socket);
  });
}

/**
 * The open connections counted against `maxConnections`: `admit` counts a socket in until it
 * closes, or refuses it (once refused, always) and warns once per time the cap is reached.
 * `listen`'s server and a mounted handler (`mounted-limits.ts`) both count with it.
 *
 * @example
 * ```ts
 * const cap = new ConnectionCap(512, logger);
 * server.on("connection", (socket) => cap.admit(socket) || socket.end(tooManyConnections(cap.max)));
 * ```
 */
export class ConnectionCap {
  private readonly open = new Set<Socket>();
  private readonly refused = new WeakSet<Socket>();
  private warned = false;

  constructor(
    readonly max: number,
    private readonly logger: Logger,
  ) {}

  /** Whether `socket` is within the cap (counted until it closes); false when it is, or was, refused. */
  admit(socket: Socket): boolean {
    if (this.open.has(socket)) return true;
    if (this.refused.has(socket) || this.open.size >= this.max) {
      this.refused.add(socket);
      if (!this.warned) {
        this.warned = true;
        this.logger.warn(
          `HTTP: ${this.max} connections are open (maxConnections); refusing new ones with 503`,
        );
      }
      return false;
    }
    this.open.add(socket);
    socket.once("close", () => {
      this.open.delete(socket);
      if (this.open.size < this.max) this.warned = false;
    });
    return true;
  }

  /** Whether `socket` was refused. */
  wasRefused(socket: Socket): boolean {
    return this.refused.has(socket);
  }
}

/** The `maxConnections` option, checked, or its default. */
export function maxConnectionsOf(options: ConnectionLimitOptions): number {
  return positive("maxConnections", options.maxConnections, CONNECTION_LIMIT_DEFAULTS.maxConnections);
}

/** The raw 503 answer to a connection beyond the cap, with a JSON-RPC error body saying why. */
export function tooManyConnections(max: number): string {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    error: {
      code: -32000,
      message: `Too many connections: ${max} are open (maxConnections); retry later`,
    },
  });
  return [
    "HTTP/1.1 503 Service Unavailable",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Retry-After: 1",
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 1) {
    throw new RangeError(`HTTP option ${name} must be a number >= 1, got ${String(value)}`);
  }
  return Math.floor(value);
}
