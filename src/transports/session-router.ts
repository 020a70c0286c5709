import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type {
  EventStore,
  StreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { AuthenticatedRequest } from "./authenticate.js";
import {
  DEFAULT_EVENT_STORE_TOTAL_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  type HttpHandlerOptions,
  type HttpHandlerStats,
} from "./http-handler.js";
import { sendJsonRpcError } from "./json-rpc-response.js";
import { DEFAULT_EVENT_STORE_MAX_BYTES, EventStoreBudget, MemoryEventStore } from "./memory-event-store.js";
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

const MAX_TIMER_MS = 2 ** 31 - 1;

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

/** The 2025-11-25 side of the front door: what it does with a request that passed the checks. */
export interface SessionRouter {
  /** Resolves once the SDK's transport is loaded: from then on nothing of a request waits on it. */
  ready(): Promise<void>;
  /** A request arrived (before its body is read): a request on a session counts as its activity. */
  arrived(req: AuthenticatedRequest, res: ServerResponse): void;
  /** Serves a request whose body (POST) was read and parsed by the front door. */
  serve(req: AuthenticatedRequest, res: ServerResponse, body: unknown, shuttingDown: boolean): Promise<void>;
  /** Stops opening sessions and closes every open session's transport. */
  close(): Promise<void>;
  stats(): HttpHandlerStats;
}

/**
 * Routes 2025-11-25 Streamable HTTP requests to one SDK transport (and one SDK server) per
 * session: an `initialize` without a session id opens a session; an unknown or terminated
 * session id answers 404; a missing one answers 400. A session exists only once the SDK
 * accepted its `initialize`; it serves only the principal that opened it; it is closed after
 * `sessionIdleTimeoutMs` without a request; at most `maxSessions` are open at once. With
 * `stateless`, every request is served on its own. The front door (`createHttpHandler`) has
 * checked the host, the method, the credentials and the body before a request gets here.
 */
export function createSessionRouter(app: SessionHost, options: HttpHandlerOptions = {}): SessionRouter {
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
  /** Responses already counted as activity of their session when they arrived. */
  const tracked = new WeakSet<ServerResponse>();

  const principalOf = (req: AuthenticatedRequest): string | undefined => {
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
  const mayUse = (session: HttpSession, req: AuthenticatedRequest): boolean =>
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

  const open = async (req: AuthenticatedRequest, res: ServerResponse, body: unknown): Promise<void> => {
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

  const arrived = (req: AuthenticatedRequest, res: ServerResponse): void => {
    // A request on a session counts as activity from its first byte (a slow upload too).
    const sessionId = req.headers["mcp-session-id"];
    const session = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (session && mayUse(session, req)) {
      track(session, res);
      tracked.add(res);
    }
  };

  const serve = async (
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
    draining: boolean,
  ): Promise<void> => {
    const shuttingDown = closed || draining;
    const sessionId = req.headers["mcp-session-id"];
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
      if (!tracked.has(res)) track(session, res);
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

  return {
    ready: async () => {
      await loadStreamableHttp();
    },
    arrived,
    serve,
    close: async () => {
      closed = true;
      await Promise.allSettled([...live].map((s) => s.transport.close()));
      await statelessRequests?.close();
    },
    stats: () => {
      let eventStoreBytes = 0;
      for (const session of live)
        if (session.store instanceof MemoryEventStore) eventStoreBytes += session.store.bytes;
      return { sessions: sessions.size, eventStoreBytes };
    },
  };
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
