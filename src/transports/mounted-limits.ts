import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Logger } from "../logging/logger.js";
import {
  ConnectionCap,
  type ConnectionLimitOptions,
  maxConnectionsOf,
  serverTimeouts,
  tooManyConnections,
} from "./connection-limits.js";
import type { HttpHandler } from "./http-handler.js";
import { sendJsonRpcError } from "./json-rpc-response.js";

/** A handler mounted in a server the app did not create, holding the connection limits itself. */
export type MountedHttpHandler = HttpHandler & {
  /**
   * Holds the connection cap and the header timeout from `server`'s very first connection.
   * Without it they hold from the first request the handler serves (it then finds its server).
   */
  attach(server: Server): void;
};

const REQUEST_TIMED_OUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/**
 * The connection cap and the header and request timeouts of `app.httpHandler`, which `listen`
 * sets on the server it creates (`connection-limits.ts`) but a handler mounted in the user's
 * Node or Express server must hold itself: it counts the connections it sees (one beyond
 * `maxConnections` is answered 503 and closed), answers 408 to a client that does not finish
 * its headers within `headersTimeoutMs` of connecting (from the server's connections it
 * watches, see `attach`) or its request within `requestTimeoutMs` of its headers, and closes
 * that connection. It only adds listeners to the server; it never changes it.
 *
 * @example
 * ```ts
 * const handler = limitMounted(frontDoor, { maxConnections: 100, headersTimeoutMs: 5_000 }, logger);
 * const server = http.createServer(handler);
 * handler.attach(server); // optional: limits from the first connection
 * ```
 */
export function limitMounted(
  handler: HttpHandler,
  options: ConnectionLimitOptions,
  logger: Logger,
): MountedHttpHandler {
  const { headersTimeout, requestTimeout } = serverTimeouts(options);
  const cap = new ConnectionCap(maxConnectionsOf(options), logger);
  const max = cap.max;
  const headerTimers = new WeakMap<Socket, NodeJS.Timeout>();
  const watched = new WeakSet<Server>();

  const onConnection = (socket: Socket) => {
    if (!cap.admit(socket)) {
      // Before node:http reads a byte of it: the client hears why, then the connection ends.
      socket.on("error", () => {});
      socket.end(tooManyConnections(max));
      return;
    }
    headerTimers.set(socket, startHeaderClock(socket, headersTimeout));
  };

  const attach = (server: Server) => {
    if (watched.has(server)) return;
    watched.add(server);
    server.prependListener("connection", onConnection);
  };

  const serve = async (req: Parameters<HttpHandler>[0], res: Parameters<HttpHandler>[1]): Promise<void> => {
    const socket = req.socket;
    // Its headers are in: the header clock of this connection stops.
    clearTimeout(headerTimers.get(socket));
    headerTimers.delete(socket);
    const server = (socket as Socket & { server?: unknown }).server;
    if (isNodeServer(server)) attach(server);
    if (cap.wasRefused(socket)) return; // answered when it connected
    if (!cap.admit(socket)) return refuseOverCap(res, max);
    if (!req.complete) startRequestClock(req, res, requestTimeout);
    return handler(req, res);
  };
  return Object.assign(serve, { close: () => handler.close(), stats: () => handler.stats(), attach });
}

/** Answers 408 on `socket` unless its headers are in within `ms` of connecting (the caller clears it then). */
function startHeaderClock(socket: Socket, ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => timeOut(socket), ms);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  return timer;
}

/**
 * Ends the connection unless the request's body is in within `ms` of its headers: 408
 * before the response started; after it, a 408 would corrupt the answer, so it is cut.
 */
function startRequestClock(
  req: Parameters<HttpHandler>[0],
  res: Parameters<HttpHandler>[1],
  ms: number,
): void {
  const socket = req.socket;
  const timer = setTimeout(() => {
    if (req.complete) return;
    if (res.headersSent) socket.destroy();
    else timeOut(socket);
  }, ms);
  timer.unref();
  const stop = () => clearTimeout(timer);
  req.once("end", stop);
  res.once("close", stop);
}

/** The 503 of a connection over the cap that node:http accepted before the handler saw it. */
function refuseOverCap(res: Parameters<HttpHandler>[1], max: number): void {
  res.setHeader("connection", "close");
  res.setHeader("retry-after", "1");
  sendJsonRpcError(res, 503, -32000, `Too many connections: ${max} are open (maxConnections); retry later`);
}

/** Answers 408 on a connection whose request is late, then closes it. */
function timeOut(socket: Socket): void {
  if (socket.destroyed) return;
  socket.on("error", () => {});
  socket.end(REQUEST_TIMED_OUT);
  // A client that keeps sending is cut off rather than waited for.
  setTimeout(() => socket.destroy(), 1_000).unref();
}

function isNodeServer(value: unknown): value is Server {
  return (
    typeof value === "object" && value !== null && typeof (value as Server).prependListener === "function"
  );
}
