import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { AuthenticatedRequest } from "./authenticate.js";
import type { HttpHandlerOptions, HttpHandlerStats } from "./http-handler.js";
import {
  CANNOT_RESUME,
  canResume,
  type HttpSession,
  initializeIds,
  isInitialize,
  newHttpSession,
} from "./http-session.js";
import { sendJsonRpcError } from "./json-rpc-response.js";
import { MemoryEventStore } from "./memory-event-store.js";
import { routerSettings } from "./router-settings.js";
import { sessionActivity } from "./session-activity.js";
import type { SessionHost } from "./session-host.js";
import { initialRecord, outageLog, SESSION_STORE_UNAVAILABLE } from "./session-records.js";
import { sharedSessions as sharedSessionsOf } from "./shared-sessions.js";
import { StatelessRequests } from "./stateless-requests.js";
import { loadStreamableHttp, streamableHttpTransport } from "./streamable-http-module.js";
import { WrappedTransport } from "./wrapped-transport.js";

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
  const settings = routerSettings(app, options);
  const { maxSessions, limits, store, sharedSessions, relay, sharedEvents, makeEventStore, stateless } =
    settings;
  const storeFailed = outageLog(app.logger);
  const { track } = sessionActivity({
    idleTimeoutMs: settings.idleTimeoutMs,
    keepAliveMs: settings.keepAliveMs,
    touch: sharedSessions ? (sessionId) => store.touch(sessionId, limits) : undefined,
    logger: app.logger,
  });

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
        store: sharedEvents,
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

  const { bindingOf, holdStream, sharedSession } = sharedSessionsOf({
    app,
    store,
    limits,
    relay,
    sessions,
    newSession: (id, principal) => newSession(id, principal),
    forget: (session) => forget(session),
    mayUse,
    isClosed: () => closed,
  });

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
    const session = newHttpSession(id, transport, eventStore, principal);
    live.add(session);
    transport.onclose = () => forget(session);
    return session;
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
      storeFailed("opening a session in the session store", error);
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
    const watched = new WrappedTransport(transport, {
      send: (message, sendOptions, forward) => {
        if ("id" in message && initIds.has(message.id as RequestId)) {
          if ("result" in message) answer = "result";
          else if ("error" in message) answer = "error";
        }
        return forward(message, sendOptions);
      },
    });
    try {
      await app.connect(watched, { session: bindingOf(session) });
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
          storeFailed(`checking session ${sessionId} in the session store`, error);
          return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
        }
      }
      if (!session) {
        if (shuttingDown) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
        return sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
      }
      // Another principal (or none) cannot use or end the session: it does not exist for them.
      if (!mayUse(session, req)) return sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
      if (req.method === "GET" && !(await canResume(session, req.headers["last-event-id"])))
        return sendJsonRpcError(res, 400, -32000, CANNOT_RESUME);
      if (req.method === "DELETE" && sharedSessions) {
        // Ended in the store before the answer: from then on every instance answers 404.
        session.ending = true;
        try {
          await store.delete(sessionId);
        } catch (error) {
          session.ending = false;
          storeFailed(`ending session ${sessionId} in the session store`, error);
          return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
        }
        // The other instances close their copies now (a copy missing this learns it on its next request).
        relay?.ended(sessionId).catch((error: unknown) => {
          app.logger.warn(`telling the other instances that session ${sessionId} ended failed`, error);
        });
      }
      if (req.method === "GET") {
        try {
          await holdStream(session, req, res);
        } catch (error) {
          storeFailed(`recording the GET stream of session ${sessionId}`, error);
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

  const TOO_MANY = `Too many sessions: ${maxSessions} are open (maxSessions); retry later or end unused sessions with DELETE`;
  const tooManySessions = (res: ServerResponse) => sendJsonRpcError(res, 503, -32000, TOO_MANY);

  return {
    ready: async () => {
      await loadStreamableHttp();
    },
    arrived,
    serve,
    close: async () => {
      closed = true;
      // This instance stops holding GET streams: notifications go elsewhere (or wait in the event store).
      if (relay) {
        const held = [...live].filter((s) => s.streams > 0);
        await Promise.allSettled(held.map((s) => store.update(s.id, { release: relay.instanceId })));
      }
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
