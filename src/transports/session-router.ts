// Over 300 lines: one class, the 2025-11-25 session router, each method short (the longest is `open`);
// its settings (router-settings.ts), idle clock (session-activity.ts), shared sessions (shared-sessions.ts)
// and relay (session-relay.ts) live beside it.
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
import { type RouterSettings, routerSettings } from "./router-settings.js";
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
 *
 * @example
 * const sessions = createSessionRouter(app, { maxSessions: 100 });
 * await sessions.ready();
 * await sessions.serve(req, res, body, false);
 */
export function createSessionRouter(app: SessionHost, options: HttpHandlerOptions = {}): SessionRouter {
  return new HttpSessionRouter(app, options);
}

class HttpSessionRouter implements SessionRouter {
  private readonly settings: RouterSettings;
  private readonly storeFailed: (what: string, error: unknown) => void;
  private readonly track: (session: HttpSession, res: ServerResponse) => void;
  /** Initialized sessions by id. */
  private readonly sessions = new Map<string, HttpSession>();
  /** Every session not yet ended, initializing ones included (what `maxSessions` bounds). */
  private readonly live = new Set<HttpSession>();
  private closed = false;
  /** Responses already counted as activity of their session when they arrived. */
  private readonly tracked = new WeakSet<ServerResponse>();
  private readonly statelessRequests: StatelessRequests | undefined;
  private readonly shared: ReturnType<typeof sharedSessionsOf>;
  private readonly tooMany: string;

  constructor(
    private readonly app: SessionHost,
    private readonly options: HttpHandlerOptions,
  ) {
    const settings = routerSettings(app, options);
    this.settings = settings;
    const { store, limits, sharedSessions } = settings;
    this.storeFailed = outageLog(app.logger);
    this.track = sessionActivity({
      idleTimeoutMs: settings.idleTimeoutMs,
      keepAliveMs: settings.keepAliveMs,
      touch: sharedSessions ? (sessionId) => store.touch(sessionId, limits) : undefined,
      logger: app.logger,
    }).track;
    this.tooMany = `Too many sessions: ${settings.maxSessions} are open (maxSessions); retry later or end unused sessions with DELETE`;
    // Imported in the background from now on; the first request waits for it if need be.
    loadStreamableHttp().catch((error: unknown) => {
      app.logger.error("loading the SDK's Streamable HTTP transport failed", error);
    });
    this.statelessRequests = settings.stateless
      ? new StatelessRequests({
          app,
          transportClass: streamableHttpTransport,
          store: settings.sharedEvents,
          enableJsonResponse: options.enableJsonResponse === true,
          retryIntervalMs: options.retryIntervalMs,
          principalOf: (req) => this.principalOf(req),
        })
      : undefined;
    this.shared = sharedSessionsOf({
      app,
      store,
      limits,
      relay: settings.relay,
      sessions: this.sessions,
      newSession: (id, principal) => this.newSession(id, principal),
      forget: (session) => this.forget(session),
      mayUse: (session, req) => this.mayUse(session, req),
      isClosed: () => this.closed,
    });
  }

  async ready(): Promise<void> {
    await loadStreamableHttp();
  }

  arrived(req: AuthenticatedRequest, res: ServerResponse): void {
    // A request on a session counts as activity from its first byte (a slow upload too).
    const sessionId = req.headers["mcp-session-id"];
    const session = typeof sessionId === "string" ? this.sessions.get(sessionId) : undefined;
    if (session && this.mayUse(session, req)) {
      this.track(session, res);
      this.tracked.add(res);
    }
  }

  async serve(
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
    draining: boolean,
  ): Promise<void> {
    const shuttingDown = this.closed || draining;
    const sessionId = req.headers["mcp-session-id"];
    if (this.statelessRequests) return this.statelessRequests.serve(req, res, body, shuttingDown);
    if (typeof sessionId === "string") return this.serveSession(sessionId, req, res, body, shuttingDown);
    if (req.method === "POST" && isInitialize(body)) {
      if (shuttingDown) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
      if (this.live.size >= this.settings.maxSessions) return this.tooManySessions(res);
      return this.open(req, res, body);
    }
    return sendJsonRpcError(
      res,
      400,
      -32000,
      "Bad Request: the Mcp-Session-Id header is required (initialize first)",
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    const { relay, store } = this.settings;
    // This instance stops holding GET streams: notifications go elsewhere (or wait in the event store).
    if (relay) {
      const held = [...this.live].filter((s) => s.streams > 0);
      await Promise.allSettled(held.map((s) => store.update(s.id, { release: relay.instanceId })));
    }
    await Promise.allSettled([...this.live].map((s) => s.transport.close()));
    await relay?.close();
    await this.statelessRequests?.close();
  }

  stats(): HttpHandlerStats {
    let eventStoreBytes = 0;
    for (const session of this.live)
      if (session.store instanceof MemoryEventStore) eventStoreBytes += session.store.bytes;
    return { sessions: this.sessions.size, eventStoreBytes };
  }

  /** A request naming session `sessionId`: served by its transport if the session exists for the caller. */
  private async serveSession(
    sessionId: string,
    req: AuthenticatedRequest,
    res: ServerResponse,
    body: unknown,
    shuttingDown: boolean,
  ): Promise<void> {
    let session = this.sessions.get(sessionId);
    if (this.settings.sharedSessions && (session || !shuttingDown)) {
      try {
        session = await this.shared.sharedSession(sessionId, req);
      } catch (error) {
        this.storeFailed(`checking session ${sessionId} in the session store`, error);
        return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
      }
    }
    if (!session) {
      if (shuttingDown) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
      return sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
    }
    // Another principal (or none) cannot use or end the session: it does not exist for them.
    if (!this.mayUse(session, req)) return sendJsonRpcError(res, 404, -32001, SESSION_NOT_FOUND);
    if (req.method === "GET" && !(await canResume(session, req.headers["last-event-id"])))
      return sendJsonRpcError(res, 400, -32000, CANNOT_RESUME);
    if (req.method === "DELETE" && this.settings.sharedSessions && !(await this.endShared(session, res)))
      return;
    if (req.method === "GET") {
      try {
        await this.shared.holdStream(session, req, res);
      } catch (error) {
        this.storeFailed(`recording the GET stream of session ${sessionId}`, error);
        return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
      }
    }
    if (!this.tracked.has(res)) this.track(session, res);
    return session.transport.handleRequest(req, res, body);
  }

  /**
   * Ends a shared session in the store before the DELETE is answered (from then on every
   * instance answers 404) and tells the other instances; false: the store failed, answered 503.
   */
  private async endShared(session: HttpSession, res: ServerResponse): Promise<boolean> {
    session.ending = true;
    try {
      await this.settings.store.delete(session.id);
    } catch (error) {
      session.ending = false;
      this.storeFailed(`ending session ${session.id} in the session store`, error);
      sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
      return false;
    }
    // The other instances close their copies now (a copy missing this learns it on its next request).
    this.settings.relay?.ended(session.id).catch((error: unknown) => {
      this.app.logger.warn(`telling the other instances that session ${session.id} ended failed`, error);
    });
    return true;
  }

  /** An `initialize` without a session: claims a place under maxSessions, then lets the SDK answer it. */
  private async open(req: AuthenticatedRequest, res: ServerResponse, body: unknown): Promise<void> {
    const { relay, store, sharedSessions, limits, maxSessions } = this.settings;
    const id = randomUUID();
    const principal = this.principalOf(req);
    // The place under maxSessions is claimed before the SDK sees the request (atomic across instances).
    let claimed: boolean;
    try {
      await relay?.start();
      // An unshared session's record lives as long as its transport (the idle timer here ends both).
      const openLimits = sharedSessions ? limits : { maxSessions, idleTimeoutMs: Number.POSITIVE_INFINITY };
      claimed = await store.open(initialRecord(id, body, principal), openLimits);
    } catch (error) {
      this.storeFailed("opening a session in the session store", error);
      return sendJsonRpcError(res, 503, -32000, SESSION_STORE_UNAVAILABLE);
    }
    if (!claimed) return this.tooManySessions(res);
    const initIds = new Set<RequestId>(initializeIds(body));
    let answer: "result" | "error" | undefined;
    const session = this.newSession(id, principal, () => {
      if (!session.ended) this.sessions.set(id, session);
    });
    const { transport } = session;
    // Watch for the answer to `initialize`: an error answer opens no session either.
    const watched = new WrappedTransport(transport, {
      send: (message, sendOptions, forward) => {
        if ("id" in message && message.id !== undefined && initIds.has(message.id)) {
          if ("result" in message) answer = "result";
          else if ("error" in message) answer = "error";
        }
        return forward(message, sendOptions);
      },
    });
    try {
      await this.app.connect(watched, { session: this.shared.bindingOf(session) });
    } catch (error) {
      this.forget(session);
      if (this.app.draining) return sendJsonRpcError(res, 503, -32000, SHUTTING_DOWN);
      throw error;
    }
    this.track(session, res);
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      // A request refused before the session was established (406, 415, 400, an error
      // answer, a client gone before the answer) leaves no session behind: close the
      // transport, which ends the app's session and its SDK server too.
      const established = this.sessions.get(id) === session && answer === "result" && res.statusCode === 200;
      if (established) session.ending = false;
      else await transport.close();
    }
  }

  /** A transport (not yet connected) and the handler's view of session `id`. */
  private newSession(id: string, principal: string | undefined, onInitialized?: () => void): HttpSession {
    const { options } = this;
    const eventStore = this.settings.makeEventStore?.(id);
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
    this.live.add(session);
    transport.onclose = () => this.forget(session);
    return session;
  }

  /** Forgets a session whose transport closed (DELETE, idle, `close()`, the app ending it). */
  private forget(session: HttpSession): void {
    if (session.ended) return;
    session.ended = true;
    this.live.delete(session);
    clearTimeout(session.timer);
    clearInterval(session.keepAlive);
    session.detach?.();
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    if (session.store instanceof MemoryEventStore) session.store.dispose();
    if (!this.settings.sharedSessions || session.ending) {
      this.settings.store.delete(session.id).catch((error: unknown) => {
        this.app.logger.warn("deleting an ended session's record failed; idle expiry still ends it", error);
      });
    }
  }

  private principalOf(req: AuthenticatedRequest): string | undefined {
    if (!req.auth) return undefined;
    return this.app.principalOf ? this.app.principalOf(req.auth) : req.auth.clientId || undefined;
  }

  /** Whether `req` may use `session`: one opened by a principal serves that principal only. */
  private mayUse(session: HttpSession, req: AuthenticatedRequest): boolean {
    return session.principal === undefined || this.principalOf(req) === session.principal;
  }

  private tooManySessions(res: ServerResponse): void {
    sendJsonRpcError(res, 503, -32000, this.tooMany);
  }
}
