import type { ServerResponse } from "node:http";
import { fieldOf } from "../common/guards.js";
import { type AuthenticatedRequest, authenticateRequest } from "./authenticate.js";
import { rejectForeignHost } from "./host-guard.js";
import type { HttpHandler, HttpHandlerOptions } from "./http-handler.js";
import { envelopeProblem } from "./json-rpc-envelope.js";
import { sendJsonRpcError } from "./json-rpc-response.js";
import { quarantineProgressTokens } from "./progress-token.js";
import { BodyTooLargeError, readBody } from "./read-body.js";
import type { SessionHost } from "./session-host.js";
import { createSessionRouter } from "./session-router.js";

/**
 * A protocol era served behind the front door beside the 2025-11-25 sessions (the
 * 2026-07-28 revision). It sees only requests that passed every check of the front door:
 * `req.auth` holds the principal `authenticate` found (or nothing, for an anonymous caller).
 */
export interface SecondEra {
  /** Whether this POST, with its parsed body, belongs to this era (else the 2025 sessions serve it). */
  claims(req: AuthenticatedRequest, body: unknown): boolean | Promise<boolean>;
  /** Serves a claimed request. */
  serve(req: AuthenticatedRequest, res: ServerResponse, body: unknown): Promise<void>;
  /** Ends the era's open requests and streams. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
const SHUTTING_DOWN = "Server is shutting down; connect again later";

/**
 * The one HTTP front door of an app: every request of either protocol era passes, in this
 * order and in this one place, the Host/Origin check (403), the method check (405),
 * `authenticate` (401 with `WWW-Authenticate`, before the body is read), the body limit
 * (413) and JSON parsing (400); only then does it reach an era: the `second` era when it
 * claims the request, else the 2025-11-25 sessions. Connection caps and header/request
 * timeouts sit one level out, on the listener (`listen`), so they hold for every request
 * too. A client that hangs up mid-request is dropped quietly.
 *
 * @example
 * ```ts
 * const handler = createHttpHandler(app, { authenticate, maxBodyBytes: 1 << 20 });
 * http.createServer((req, res) => void handler(req, res)).listen(3000);
 * ```
 */
export function createHttpHandler(
  app: SessionHost,
  options: HttpHandlerOptions = {},
  second?: SecondEra,
): HttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const sessions = createSessionRouter(app, options);
  let closed = false;

  const handle = async (req: AuthenticatedRequest, res: ServerResponse): Promise<void> => {
    // First, so that from here on (the session checks, opening one) nothing waits.
    await sessions.ready();
    const refusal = rejectForeignHost(req, options);
    if (refusal) return sendJsonRpcError(res, 403, -32000, refusal);
    if (req.method !== "GET" && req.method !== "POST" && req.method !== "DELETE") {
      res.setHeader("allow", "GET, POST, DELETE");
      return sendJsonRpcError(res, 405, -32000, "Method not allowed: use POST, GET or DELETE");
    }
    // Before a body is read or a session touched: an unauthenticated request gets 401 and nothing else.
    if (options.authenticate && !(await authenticateRequest(req, res, options, app.logger))) return;
    sessions.arrived(req, res);
    let body: unknown;
    if (req.method === "POST") {
      const read = await readJson(req, res, maxBodyBytes);
      if (!read.ok) return;
      body = read.body;
      const problem = envelopeProblem(body);
      if (problem) return sendJsonRpcError(res, 400, -32600, `Invalid Request: ${problem}`);
    }
    const shuttingDown = closed || app.draining === true;
    if (second && req.method === "POST" && (await second.claims(req, body))) {
      if (shuttingDown) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
      return second.serve(req, res, body);
    }
    // Bad progress tokens are answered -32602 by the app, not 400 by the 1.x SDK.
    if (body !== undefined) quarantineProgressTokens(body);
    return sessions.serve(req, res, body, shuttingDown);
  };

  const serve = async (req: AuthenticatedRequest, res: ServerResponse): Promise<void> => {
    try {
      await handle(req, res);
    } catch (error) {
      if (clientGone(req, res)) return app.logger.debug("an HTTP client went away mid-request", error);
      app.logger.error("HTTP request failed", error);
      sendJsonRpcError(res, 500, -32603, "Internal error");
    }
  };
  const close = async () => {
    closed = true;
    await Promise.allSettled([sessions.close(), second?.close()]);
  };
  return Object.assign(serve, { close, stats: () => sessions.stats() });
}

/** Reads and parses a POST body; answers 413 or 400 itself (or nothing when the client left). */
async function readJson(
  req: AuthenticatedRequest,
  res: ServerResponse,
  maxBodyBytes: number,
): Promise<{ ok: true; body: unknown } | { ok: false }> {
  let text: string;
  try {
    text = await readBody(req, maxBodyBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      sendJsonRpcError(
        res,
        413,
        -32600,
        `Request body is larger than ${maxBodyBytes} bytes; send less data per call`,
      );
      return { ok: false };
    }
    if (clientGone(req, res)) return { ok: false };
    throw error;
  }
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (error) {
    sendJsonRpcError(
      res,
      400,
      -32700,
      `Parse error: the request body is not valid JSON (${String(fieldOf(error, "message"))})`,
    );
    return { ok: false };
  }
}

/** Whether the client closed the connection before the answer (a hang-up mid-body). */
function clientGone(req: AuthenticatedRequest, res: ServerResponse): boolean {
  return req.destroyed || res.destroyed || fieldOf(req, "aborted") === true;
}
