import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  type EventStore,
  StreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { type HostPolicy, rejectForeignHost } from "./host-guard.js";
import { sendJsonRpcError } from "./json-rpc-response.js";
import { MemoryEventStore } from "./memory-event-store.js";
import { BodyTooLargeError, readBody } from "./read-body.js";
import type { SessionHost } from "./session-host.js";

/** Options of the Streamable HTTP handler. */
export interface HttpHandlerOptions extends HostPolicy {
  /** Largest request body accepted, in bytes (default 4 MiB). Larger bodies get a JSON-RPC error. */
  maxBodyBytes?: number | undefined;
  /** Makes an event store per session so clients can resume streams; `false` turns resumption off. */
  eventStore?: (() => EventStore) | false | undefined;
  /** Answer POSTs with plain JSON instead of SSE streams. */
  enableJsonResponse?: boolean | undefined;
  /** `retry` hint (ms) sent to clients with SSE priming events, for polling reconnection. */
  retryIntervalMs?: number | undefined;
}

/** A Node request handler serving MCP over Streamable HTTP, with `close()` to end its sessions. */
export type HttpHandler = ((
  req: IncomingMessage & { auth?: AuthInfo },
  res: ServerResponse,
) => Promise<void>) & {
  close(): Promise<void>;
};

/**
 * Routes Streamable HTTP requests to one SDK transport (and one SDK server) per session:
 * an `initialize` without a session id opens a session; an unknown or terminated session
 * id answers 404; a missing one answers 400. Host and Origin are checked first.
 */
export function createHttpHandler(app: SessionHost, options: HttpHandlerOptions = {}): HttpHandler {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const makeEventStore =
    options.eventStore === false ? undefined : (options.eventStore ?? (() => new MemoryEventStore()));

  const handle = async (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<void> => {
    const refusal = rejectForeignHost(req, options);
    if (refusal) return sendJsonRpcError(res, 403, -32000, refusal);
    if (req.method !== "GET" && req.method !== "POST" && req.method !== "DELETE") {
      res.setHeader("allow", "GET, POST, DELETE");
      return sendJsonRpcError(res, 405, -32000, "Method not allowed: use POST, GET or DELETE");
    }
    let body: unknown;
    if (req.method === "POST") {
      try {
        body = JSON.parse(await readBody(req, maxBodyBytes));
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          return sendJsonRpcError(
            res,
            413,
            -32600,
            `Request body is larger than ${maxBodyBytes} bytes; send less data per call`,
          );
        }
        return sendJsonRpcError(res, 400, -32700, "Parse error: the request body is not valid JSON");
      }
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = transports.get(sessionId);
      if (!transport)
        return sendJsonRpcError(
          res,
          404,
          -32001,
          "Session not found: it ended or never existed; initialize a new one",
        );
      return transport.handleRequest(req, res, body);
    }
    if (req.method === "POST" && isInitialize(body)) {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        ...(makeEventStore ? { eventStore: makeEventStore() } : {}),
        ...(options.enableJsonResponse ? { enableJsonResponse: true } : {}),
        ...(options.retryIntervalMs === undefined ? {} : { retryInterval: options.retryIntervalMs }),
        onsessioninitialized: (id) => {
          transports.set(id, transport);
        },
        onsessionclosed: (id) => {
          transports.delete(id);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) transports.delete(transport.sessionId);
      };
      await app.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    return sendJsonRpcError(
      res,
      400,
      -32000,
      "Bad Request: the Mcp-Session-Id header is required (initialize first)",
    );
  };

  const handler = (async (req, res) => {
    try {
      await handle(req, res);
    } catch (error) {
      app.logger.error("HTTP request failed", error);
      sendJsonRpcError(res, 500, -32603, "Internal error");
    }
  }) as HttpHandler;
  handler.close = async () => {
    const open = [...transports.values()];
    transports.clear();
    await Promise.allSettled(open.map((t) => t.close()));
  };
  return handler;
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}
