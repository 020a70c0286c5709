import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type {
  EventStore,
  StreamableHTTPServerTransport,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { MemorySessionStore } from "../sessions/memory-session-store.js";
import type { SessionLimits, SessionRecord } from "../sessions/session-store.js";
import { SessionRelay, canRelay, type RelayedSession } from "./session-relay.js";
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
import type { SessionBinding, SessionHost } from "./session-host.js";
import { initialRecord, SESSION_STORE_UNAVAILABLE } from "./session-records.js";
import { reviveTransport } from "./session-revival.js";
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

/** One session as the handler sees it (with a shared session store: this instance's copy of it). */
interface HttpSession {
  /** The `Mcp-Session-Id`, chosen before `initialize` is answered. */
  readonly id: string;
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
  /**
   * Closing the transport ends the session for good, its record too: while it is not yet
   * established, on DELETE, and always for an unshared store. A shared session's copy
   * closing here otherwise (idle on this instance, the instance stopping) leaves it to the others.
   */
  ending: boolean;
  /** Touches the shared record while requests of the session are open here (an open GET stream is activity). */
  keepAlive: NodeJS.Timeout | undefined;
  /** Applies the record to the app's session (what another instance changed). */
  apply: ((record: SessionRecord) => void) | undefined;
  /** Stops relaying the client's answers to this copy. */
  detach: (() => void) | undefined;
  /** GET streams of the session open on this instance. */
  streams: number;
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
  const store = app.sessionStore ?? new MemorySessionStore();
  /** Sessions live in a store other instances read: any instance serves any request of any session. */
  const sharedSessions = store.shared;
  const limits: SessionLimits = { maxSessions, idleTimeoutMs };
  /** Carries a client's answer to the instance whose call asked (a shared session's POSTs land anywhere). */
  const relay = sharedSessions && canRelay(store) ? new SessionRelay(store, app.logger) : undefined;
  const keepAliveMs =
    idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs) ? Math.max(1000, Math.floor(idleTimeoutMs / 3)) : 0;
  const stateless = options.stateless === true;
  if (stateless) {
    const problem = statelessSettingsProblem(app, options);
    if (problem) throw new Error(problem);
  }
  const budget = options.eventStore === undefined ? new EventStoreBudget(eventStoreTotalBytes) : undefined;
  const makeEventStore: ((sessionId: string) => EventStore) | undefined =
    options.eventStore === false
      ? undefined
      : shared
        ? // One view per session (the same on every instance): a session resumes only its own streams.
          (sessionId) => new ScopedEventStore(shared, sessionId)
        : typeof options.eventStore === "function"
          ? () => (options.eventStore as () => EventStore)()
          : () => new MemoryEventStore({ maxBytes: eventStoreMaxBytes, budget });

  // Imported in the background from now on; the first request waits for it if need be.
  loadStreamableHttp().catch((error: unknown) => {
    app.logger.error("loading the SDK's Streamable HTTP transport failed", error);
  });

  /** Initialized sessions by id. */
  const sessions = new Map<string, HttpSession>();
  /** Every session not yet ended, initializing ones included (what `maxSessions` bounds). */
  const live = new Set<HttpSession>();
  /** Shared sessions being rebuilt here, so concurrent requests of one session rebuild it once. */
  const reviving = new Map<string, Promise<HttpSession | undefined>>();
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
    clearInterval(session.keepAlive);
    session.detach?.();
    if (sessions.get(session.id) === session) sessions.delete(session.id);
    if (session.store instanceof MemoryEventStore) session.store.dispose();
    if (!sharedSessions || session.ending) {
      store.delete(session.id).catch((error: unknown) => {
        app.logger.warn("deleting an ended session's record failed; idle expiry still ends it", error);
      });
    }
  };

  const bindingOf = (session: HttpSession, revive?: SessionRecord): SessionBinding => ({
    revive,
    persist: async (change) => {
      await store.update(session.id, change);
      if (!relay || (change.subscribe === undefined && change.unsubscribe === undefined)) return;
      // The instance holding the GET stream sends resource updates: it must know the subscriptions now.
      const holder = (await store.get(session.id, limits))?.streamHolder;
      if (holder !== undefined) await relay.changed(session.id, holder);
    },
    endsOnClose: () => !sharedSessions || session.ending,
    notifiesHere: () => !relay || session.streams > 0,
    follow: (apply) => {
      session.apply = apply;
    },
  });

  const relayedSession = (session: HttpSession): RelayedSession => ({
    holdsStream: () => session.streams > 0,
    streamHolder: async () => (await store.get(session.id, limits))?.streamHolder,
    refresh: async () => {
      const record = await store.get(session.id, limits);
      if (record) session.apply?.(record);
    },
  });

  /**
   * Makes this instance the holder of the session's GET stream while `res` is open: the
   * session's notifications outside calls are sent here, wherever they start.
   */
  const holdStream = async (session: HttpSession, res: ServerResponse): Promise<void> => {
    if (!relay) return;
    session.streams++;
    res.once("close", () => {
      session.streams--;
      if (session.streams > 0 || session.ended) return;
      store.update(session.id, { release: relay.instanceId }).catch(() => {});
    });
    await store.update(session.id, { holder: relay.instanceId });
  };

  /** A transport (not yet connected) and the handler's view of session `id`. */
  const newSession = (id: string, principal: string | undefined, onInitialized?: () => void) => {
    const eventStore = makeEventStore?.(id);
    const Transport = streamableHttpTransport();
    const transport = new Transport({
      sessionIdGenerator: () => id,
      ...(eventStore ? { eventStore } : {}),
      ...(options.enableJsonResponse ? { enableJsonResponse: true } : {}),
      ...(options.retryIntervalMs === undefined ? {} : { retryInterval: options.retryIntervalMs }),
      // Called once the SDK accepted the initialize request, before the server answers it.
      ...(onInitialized ? { onsessioninitialized: onInitialized } : {}),
    });
    const session: HttpSession = {
      id,
      transport,
      store: eventStore,
      principal,
      open: 0,
      idleSince: Date.now(),
      timer: undefined,
      ended: false,
      ending: true,
      keepAlive: undefined,
      apply: undefined,
      detach: undefined,
      streams: 0,
    };
    live.add(session);
    transport.onclose = () => forget(session);
    return session;
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
    if (sharedSessions && keepAliveMs > 0 && !session.keepAlive) {
      session.keepAlive = setInterval(() => {
        store.touch(session.id, limits).catch(() => {});
      }, keepAliveMs);
      session.keepAlive.unref();
    }
    res.once("close", () => {
      session.open--;
      if (session.open > 0) return;
      clearInterval(session.keepAlive);
      session.keepAlive = undefined;
      session.idleSince = Date.now();
      armIdleTimer(session);
    });
  };

  const open = async (req: AuthenticatedRequest, res: ServerResponse, body: unknown): Promise<void> => {
    const id = randomUUID();
    const principal = principalOf(req);
    // The place under maxSessions is claimed before the SDK sees the request (atomic across instances).
    let claimed: boolean;
    try {
      await relay?.start();
      // An unshared session's record lives as long as its transport (the idle timer here ends both).
      const openLimits = sharedSessions ? limits : { maxSessions, idleTimeoutMs: Number.POSITIVE_INFINITY };
      claimed = await store.open(initialRecord(id, body, principal), openLimits);
    } catch (error) {
      app.logger.warn("opening a session in the session store failed", error);
      return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
    }
    if (!claimed) return tooManySessions(res);
    const initIds = new Set<RequestId>(initializeIds(body));
    let answer: "result" | "error" | undefined;
    const session = newSession(id, principal, () => {
      if (!session.ended) sessions.set(id, session);
    });
    const { transport } = session;
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
      await app.connect(transport, { session: bindingOf(session) });
      session.detach = relay?.attach(id, transport, relayedSession(session));
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
      const established = sessions.get(id) === session && answer === "result" && res.statusCode === 200;
      if (established) session.ending = false;
      else await transport.close();
    }
  };

  /** Rebuilds here a shared session opened on another instance (once, whatever the requests waiting for it). */
  const revive = (id: string): Promise<HttpSession | undefined> => {
    let pending = reviving.get(id);
    if (!pending) {
      pending = rebuild(id).finally(() => reviving.delete(id));
      reviving.set(id, pending);
    }
    return pending;
  };

  const rebuild = async (id: string): Promise<HttpSession | undefined> => {
    await relay?.start();
    const record = await store.get(id, limits);
    if (!record || closed) return undefined;
    const session = newSession(id, record.principal);
    session.ending = false;
    reviveTransport(session.transport, id);
    sessions.set(id, session);
    try {
      await app.connect(session.transport, { session: bindingOf(session, record) });
      session.detach = relay?.attach(id, session.transport, relayedSession(session));
    } catch (error) {
      forget(session);
      throw error;
    }
    return session;
  };

  /**
   * The session a request names, checked against the shared store: this instance's copy
   * when the session is still live (the check counts as its activity), a copy rebuilt from
   * its record when this instance holds none, or nothing when it ended (DELETE or idle
   * expiry, on any instance; a stale copy here is closed).
   */
  const sharedSession = async (id: string, req: AuthenticatedRequest): Promise<HttpSession | undefined> => {
    const local = sessions.get(id);
    if (!local) return revive(id);
    if (!mayUse(local, req)) return local;
    // Read whole (one round trip, as a touch would be): another instance may have changed it.
    const record = await store.get(id, limits);
    if (record) {
      local.apply?.(record);
      return local;
    }
    local.transport
      .close()
      .catch((error) => app.logger.warn("closing an ended session's copy failed", error));
    return undefined;
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
      let session = sessions.get(sessionId);
      if (sharedSessions && (session || !shuttingDown)) {
        try {
          session = await sharedSession(sessionId, req);
        } catch (error) {
          app.logger.warn(`checking session ${sessionId} in the session store failed`, error);
          return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
        }
      }
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
      if (req.method === "DELETE" && sharedSessions) {
        // Ended in the store before the answer: from then on every instance answers 404.
        session.ending = true;
        try {
          await store.delete(sessionId);
        } catch (error) {
          session.ending = false;
          app.logger.warn(`ending session ${sessionId} in the session store failed`, error);
          return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
        }
      }
      if (req.method === "GET") {
        try {
          await holdStream(session, res);
        } catch (error) {
          app.logger.warn(`recording the GET stream of session ${sessionId} failed`, error);
          return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
        }
      }
      if (!tracked.has(res)) track(session, res);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method === "POST" && isInitialize(body)) {
      if (shuttingDown) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
      if (live.size >= maxSessions) return tooManySessions(res);
      return open(req, res, body);
    }
    return sendJsonRpcError(
      res,
      400,
      -32000,
      "Bad Request: the Mcp-Session-Id header is required (initialize first)",
    );
  };

  const tooManySessions = (res: ServerResponse) =>
    sendJsonRpcError(
      res,
      503,
      -32000,
      `Too many sessions: ${maxSessions} are open (maxSessions); retry later or end unused sessions with DELETE`,
    );

  return {
    ready: async () => {
      await loadStreamableHttp();
    },
    arrived,
    serve,
    close: async () => {
      closed = true;
      await Promise.allSettled([...live].map((s) => s.transport.close()));
      await relay?.close();
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
