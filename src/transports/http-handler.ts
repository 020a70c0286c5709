import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type {
  EventStore,
  StreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { type AuthOptions, authenticateRequest } from "./authenticate.js";
import { type HostPolicy, rejectForeignHost } from "./host-guard.js";
import { sendJsonRpcError } from "./json-rpc-response.js";
import { DEFAULT_EVENT_STORE_MAX_BYTES, EventStoreBudget, MemoryEventStore } from "./memory-event-store.js";
import { quarantineProgressTokens } from "./progress-token.js";
import { BodyTooLargeError, readBody } from "./read-body.js";
import { isSharedEventStore, ScopedEventStore, type SharedEventStore } from "./scoped-event-store.js";
import type { SessionHost } from "./session-host.js";
import { statelessSettingsProblem } from "./stateless-checks.js";
import { StatelessRequests } from "./stateless-requests.js";

type StreamableHttpModule = typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");
let streamableHttp: StreamableHttpModule | undefined;
let streamableHttpLoading: Promise<StreamableHttpModule> | undefined;

/**
 * Imports the SDK's Streamable HTTP transport when HTTP is first served, not at start-up:
 * it (and the web-standard HTTP layer under it) costs about 30 ms that a stdio server
 * never needs. Once loaded, awaiting it takes a microtask.
 */
function loadStreamableHttp(): Promise<StreamableHttpModule> {
  streamableHttpLoading ??= import("@modelcontextprotocol/sdk/server/streamableHttp.js").then(
    (module) => {
      streamableHttp = module;
      return module;
    },
    (error: unknown) => {
      streamableHttpLoading = undefined;
      throw error;
    },
  );
  return streamableHttpLoading;
}

/** The transport class; every request awaits `loadStreamableHttp()` before it gets here. */
function streamableHttpTransport(): StreamableHttpModule["StreamableHTTPServerTransport"] {
  if (!streamableHttp) throw new Error("the Streamable HTTP transport is not loaded yet");
  return streamableHttp.StreamableHTTPServerTransport;
}

/** Default `sessionIdleTimeoutMs`: 30 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** Default `maxSessions`. */
export const DEFAULT_MAX_SESSIONS = 1000;
/** Default `eventStoreTotalBytes`: 256 MiB. */
export const DEFAULT_EVENT_STORE_TOTAL_BYTES = 256 * 1024 * 1024;

/** Longest delay a Node timer takes (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Options of the Streamable HTTP handler. */
export interface HttpHandlerOptions extends HostPolicy, AuthOptions {
  /** Largest request body accepted, in bytes (default 4 MiB). Larger bodies get a JSON-RPC error. */
  maxBodyBytes?: number | undefined;
  /**
   * Serve every request on its own, without sessions (no `Mcp-Session-Id`), so any instance
   * behind a load balancer can answer any request: owners are then principals. What needs
   * a session is refused with an error naming the alternative: server-to-client requests
   * (`ctx.elicit`, `ctx.sample`), `resources/subscribe`, a GET stream without
   * `Last-Event-ID` and DELETE (405). An app that declares owner-scoped features (tools
   * cached or spilled with `scope: "owner"`) must be given `authenticate` (and no
   * `allowAnonymous`): start-up fails otherwise, naming them. Default false.
   */
  stateless?: boolean | undefined;
  /**
   * Where streams are kept so clients can resume them with `Last-Event-ID`; `false` turns
   * resumption off. A shared store (`new RedisEventStore(…)`) serves every session, each
   * seeing only its own streams, and in stateless mode lets a client resume on any
   * instance; a function makes one store per session. Default: a `MemoryEventStore` per
   * session bounded by `eventStoreMaxBytes` and `eventStoreTotalBytes` (stateless: none).
   */
  eventStore?: SharedEventStore | (() => EventStore) | false | undefined;
  /** Answer POSTs with plain JSON instead of SSE streams. */
  enableJsonResponse?: boolean | undefined;
  /** `retry` hint (ms) sent to clients with SSE priming events, for polling reconnection. */
  retryIntervalMs?: number | undefined;
  /**
   * A session with no HTTP request open (no POST being answered, no GET stream held open)
   * for this long is closed, as if its client had sent DELETE; its id then answers 404.
   * This reclaims the sessions of clients that went away without DELETE (the SDK client's
   * `close()` sends none). Default 30 minutes; `0` or `Infinity` turns it off.
   */
  sessionIdleTimeoutMs?: number | undefined;
  /**
   * Most sessions this handler keeps open at once (default 1,000). Beyond it an
   * `initialize` answers 503 with a JSON-RPC error until a session ends.
   */
  maxSessions?: number | undefined;
  /**
   * Most bytes the default event store of one session keeps for resumption, counted as the
   * JSON of the stored messages (default 16 MiB); its oldest events are dropped first. A
   * resume from an event whose successors were dropped answers 400. Ignored with `eventStore`.
   */
  eventStoreMaxBytes?: number | undefined;
  /**
   * Most bytes the default event stores of all this handler's sessions keep together
   * (default 256 MiB); over it, the session holding the most drops its oldest events
   * first. Ignored with `eventStore`.
   */
  eventStoreTotalBytes?: number | undefined;
}

/** Counters of one HTTP handler. */
export interface HttpHandlerStats {
  /** Sessions open now (initialized and not yet ended). */
  sessions: number;
  /** Bytes the sessions' `MemoryEventStore`s keep for resumption now. */
  eventStoreBytes: number;
}

/** A Node request handler serving MCP over Streamable HTTP, with `close()` to end its sessions. */
export type HttpHandler = ((
  req: IncomingMessage & { auth?: AuthInfo },
  res: ServerResponse,
) => Promise<void>) & {
  /** Stops opening sessions (new ones get 503) and closes every open session's transport. */
  close(): Promise<void>;
  /** Open sessions and the bytes their event stores keep, now. */
  stats(): HttpHandlerStats;
};

/** One session as the handler sees it. */
interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly store: EventStore | undefined;
  /** The principal that opened it, when it was opened with auth info: it serves that principal only. */
  readonly principal: string | undefined;
  /** HTTP requests of the session being answered now (an open GET stream counts). */
  open: number;
  /** When `open` last dropped to zero. */
  idleSince: number;
  timer: NodeJS.Timeout | undefined;
  ended: boolean;
}

const SHUTTING_DOWN = "Server is shutting down; connect again later";
const SESSION_NOT_FOUND = "Session not found: it ended or never existed; initialize a new one";

/**
 * Routes Streamable HTTP requests to one SDK transport (and one SDK server) per session:
 * an `initialize` without a session id opens a session; an unknown or terminated session
 * id answers 404; a missing one answers 400. Host and Origin are checked first. A session
 * exists only once the SDK accepted its `initialize`; it serves only the principal that
 * opened it; it is closed after `sessionIdleTimeoutMs` without a request; at most
 * `maxSessions` are open at once.
 */
export function createHttpHandler(app: SessionHost, options: HttpHandlerOptions = {}): HttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const idleTimeoutMs = checkedOption(
    "sessionIdleTimeoutMs",
    options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS,
    0,
  );
  const maxSessions = checkedOption("maxSessions", options.maxSessions ?? DEFAULT_MAX_SESSIONS, 1);
  const eventStoreMaxBytes = checkedOption(
    "eventStoreMaxBytes",
    options.eventStoreMaxBytes ?? DEFAULT_EVENT_STORE_MAX_BYTES,
    1,
  );
  const eventStoreTotalBytes = checkedOption(
    "eventStoreTotalBytes",
    options.eventStoreTotalBytes ?? DEFAULT_EVENT_STORE_TOTAL_BYTES,
    1,
  );
  const shared = sharedEventStore(options.eventStore);
  const stateless = options.stateless === true;
  if (stateless) {
    const problem = statelessSettingsProblem(app, options);
    if (problem) throw new Error(problem);
  }
  const budget = options.eventStore === undefined ? new EventStoreBudget(eventStoreTotalBytes) : undefined;
  const makeEventStore: (() => EventStore) | undefined =
    options.eventStore === false
      ? undefined
      : shared
        ? // One view per session: a session resumes only its own streams in the shared store.
          () => new ScopedEventStore(shared, randomUUID())
        : typeof options.eventStore === "function"
          ? options.eventStore
          : () => new MemoryEventStore({ maxBytes: eventStoreMaxBytes, budget });

  // Imported in the background from now on; the first request waits for it if need be.
  loadStreamableHttp().catch((error: unknown) => {
    app.logger.error("loading the SDK's Streamable HTTP transport failed", error);
  });

  /** Initialized sessions by id. */
  const sessions = new Map<string, HttpSession>();
  /** Every session not yet ended, initializing ones included (what `maxSessions` bounds). */
  const live = new Set<HttpSession>();
  let closed = false;

  const principalOf = (req: IncomingMessage & { auth?: AuthInfo }): string | undefined => {
    if (!req.auth) return undefined;
    return app.principalOf ? app.principalOf(req.auth) : req.auth.clientId || undefined;
  };

  const statelessRequests = stateless
    ? new StatelessRequests({
        app,
        transportClass: streamableHttpTransport,
        store: shared,
        enableJsonResponse: options.enableJsonResponse === true,
        retryIntervalMs: options.retryIntervalMs,
        principalOf,
      })
    : undefined;

  /** Whether `req` may use `session`: one opened by a principal serves that principal only. */
  const mayUse = (session: HttpSession, req: IncomingMessage & { auth?: AuthInfo }): boolean =>
    session.principal === undefined || principalOf(req) === session.principal;

  /** Forgets a session whose transport closed (DELETE, idle, `close()`, the app ending it). */
  const forget = (session: HttpSession) => {
    if (session.ended) return;
    session.ended = true;
    live.delete(session);
    clearTimeout(session.timer);
    const id = session.transport.sessionId;
    if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
    if (session.store instanceof MemoryEventStore) session.store.dispose();
  };

  const armIdleTimer = (session: HttpSession) => {
    if (idleTimeoutMs === 0 || idleTimeoutMs === Number.POSITIVE_INFINITY) return;
    if (session.ended || session.timer || session.open > 0) return;
    const wait = Math.min(Math.max(0, session.idleSince + idleTimeoutMs - Date.now()), MAX_TIMER_MS);
    session.timer = setTimeout(() => {
      session.timer = undefined;
      if (session.ended || session.open > 0) return;
      if (Date.now() - session.idleSince < idleTimeoutMs) return armIdleTimer(session);
      app.logger.debug(`closing HTTP session ${session.transport.sessionId}: idle for ${idleTimeoutMs} ms`);
      session.transport.close().catch((error) => app.logger.warn("closing an idle session failed", error));
    }, wait);
    // An idle session never keeps the process alive.
    session.timer.unref();
  };

  /** Counts `res` as activity of `session` until it ends; the idle clock starts when none is left. */
  const track = (session: HttpSession, res: ServerResponse) => {
    session.open++;
    clearTimeout(session.timer);
    session.timer = undefined;
    res.once("close", () => {
      session.open--;
      if (session.open > 0) return;
      session.idleSince = Date.now();
      armIdleTimer(session);
    });
  };

  const open = async (
    req: IncomingMessage & { auth?: AuthInfo },
    res: ServerResponse,
    body: unknown,
  ): Promise<void> => {
    const store = makeEventStore?.();
    const initIds = new Set<RequestId>(initializeIds(body));
    let answer: "result" | "error" | undefined;
    const Transport = streamableHttpTransport();
    const transport = new Transport({
      sessionIdGenerator: () => randomUUID(),
      ...(store ? { eventStore: store } : {}),
      ...(options.enableJsonResponse ? { enableJsonResponse: true } : {}),
      ...(options.retryIntervalMs === undefined ? {} : { retryInterval: options.retryIntervalMs }),
      // Called once the SDK accepted the initialize request, before the server answers it.
      onsessioninitialized: (id) => {
        if (!session.ended) sessions.set(id, session);
      },
    });
    const session: HttpSession = {
      transport,
      store,
      principal: principalOf(req),
      open: 0,
      idleSince: Date.now(),
      timer: undefined,
      ended: false,
    };
    live.add(session);
    transport.onclose = () => forget(session);
    // Watch for the answer to `initialize`: an error answer opens no session either.
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, sendOptions) => {
      if ("id" in message && initIds.has(message.id as RequestId)) {
        if ("result" in message) answer = "result";
        else if ("error" in message) answer = "error";
      }
      return send(message, sendOptions);
    };
    try {
      await app.connect(transport);
    } catch (error) {
      forget(session);
      if (app.draining) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
      throw error;
    }
    track(session, res);
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      // A request refused before the session was established (406, 415, 400, an error
      // answer, a client gone before the answer) leaves no session behind: close the
      // transport, which ends the app's session and its SDK server too.
      const id = transport.sessionId;
      const established =
        id !== undefined && sessions.get(id) === session && answer === "result" && res.statusCode === 200;
      if (!established) await transport.close();
    }
  };

  const handle = async (req: IncomingMessage & { auth?: AuthInfo }, res: ServerResponse): Promise<void> => {
    // First, so that from here on (the session checks, opening one) nothing waits.
    await loadStreamableHttp();
    const refusal = rejectForeignHost(req, options);
    if (refusal) return sendJsonRpcError(res, 403, -32000, refusal);
    if (req.method !== "GET" && req.method !== "POST" && req.method !== "DELETE") {
      res.setHeader("allow", "GET, POST, DELETE");
      return sendJsonRpcError(res, 405, -32000, "Method not allowed: use POST, GET or DELETE");
    }
    // Before a body is read or a session touched: an unauthenticated request gets 401 and nothing else.
    if (options.authenticate && !(await authenticateRequest(req, res, options, app.logger))) return;
    // A request on a session counts as activity from its first byte (a slow upload too).
    const sessionId = req.headers["mcp-session-id"];
    const arrivedOn = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (arrivedOn && mayUse(arrivedOn, req)) track(arrivedOn, res);
    let body: unknown;
    if (req.method === "POST") {
      try {
        body = JSON.parse(await readBody(req, maxBodyBytes));
        quarantineProgressTokens(body); // answered -32602 by the app, not 400 by the SDK
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
    const shuttingDown = closed || app.draining === true;
    if (statelessRequests) return statelessRequests.serve(req, res, body, shuttingDown);
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (!session) {
        if (shuttingDown) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
        return sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
      }
      // Another principal (or none) cannot use or end the session: it does not exist for them.
      if (!mayUse(session, req)) return sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
      const lastEventId = req.headers["last-event-id"];
      if (
        req.method === "GET" &&
        typeof lastEventId === "string" &&
        (session.store instanceof MemoryEventStore || session.store instanceof ScopedEventStore) &&
        !(await session.store.canResumeAfter(lastEventId))
      ) {
        return sendJsonRpcError(
          res,
          400,
          -32000,
          "Cannot resume after this Last-Event-ID: the events after it are no longer kept (the stream store of a session is bounded); send the request again",
        );
      }
      if (session !== arrivedOn) track(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method === "POST" && isInitialize(body)) {
      if (shuttingDown) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
      if (live.size >= maxSessions) {
        return sendJsonRpcError(
          res,
          503,
          -32000,
          `Too many sessions: ${maxSessions} are open (maxSessions); retry later or end unused sessions with DELETE`,
        );
      }
      return open(req, res, body);
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
    closed = true;
    await Promise.allSettled([...live].map((s) => s.transport.close()));
    await statelessRequests?.close();
  };
  handler.stats = () => {
    let eventStoreBytes = 0;
    for (const session of live)
      if (session.store instanceof MemoryEventStore) eventStoreBytes += session.store.bytes;
    return { sessions: sessions.size, eventStoreBytes };
  };
  return handler;
}

function isInitialize(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

function initializeIds(body: unknown): RequestId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.filter((m) => isInitializeRequest(m)).map((m) => (m as unknown as { id: RequestId }).id);
}

/** The `eventStore` option when it is one store shared by every session; refuses other objects. */
function sharedEventStore(option: HttpHandlerOptions["eventStore"]): SharedEventStore | undefined {
  if (option === undefined || option === false || typeof option === "function") return undefined;
  if (isSharedEventStore(option)) return option;
  throw new TypeError(
    "HTTP option eventStore must be a function making one store per session (() => new MemoryEventStore()), a store shared by every session (new RedisEventStore(…)), or false",
  );
}

function checkedOption(name: string, value: number, min: number): number {
  if (typeof value !== "number" || Number.isNaN(value) || value < min)
    throw new RangeError(`HTTP option ${name} must be a number >= ${min}, got ${String(value)}`);
  return value;
}
