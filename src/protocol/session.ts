import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { ClientCapabilities, LoggingLevel, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { SteadyMap } from "../common/steady-map.js";
import type { SessionChange } from "../sessions/session-store.js";

/**
 * The state the framework keeps for one serving unit, whatever SDK serves it: a 2025 session
 * (one SDK 1.x server), a 2025 stdio connection or a 2026-07-28 request (one SDK v2 server).
 */
export interface Session {
  /** Filled in by the transport (HTTP) or generated at `connect()` time. */
  readonly id: () => string;
  /** What the client declared in its handshake (a 2026 request's envelope, read from `extra`, comes first). */
  readonly clientCapabilities: () => ClientCapabilities | undefined;
  /** Set by `logging/setLevel`; messages below it are not sent. */
  logLevel: LoggingLevel | undefined;
  /** URIs this session subscribed to with `resources/subscribe`. */
  readonly subscriptions: Set<string>;
  /**
   * Saves a change of `logLevel` or `subscriptions` in the session store, where the other
   * instances serving the session read it (unset: nothing outside this instance needs it).
   */
  persist?: ((change: SessionChange) => Promise<void>) | undefined;
  /** Calls running now (with the name of their tool, resource or prompt), so `app.close()` can wait for them. */
  readonly inFlight: SteadyMap<Promise<unknown>, string>;
  /**
   * Requests received and not yet answered, by JSON-RPC id: each settles once its response
   * has been handed to the transport and sent (or the client cancelled it). `app.close()`
   * waits for them, then answers those still open with an error.
   */
  readonly unanswered: SteadyMap<RequestId, string>;
  /**
   * Set by `app.close()` while it waits for `unanswered` to empty: called when the last one
   * is answered. (No promise per request: the hot path only adds and deletes a map entry.)
   */
  whenAllAnswered: (() => void) | undefined;
  /** Requests `app.close()` already answered with an error: a late answer from their handler is dropped. */
  readonly cut: Set<RequestId>;
  /** How many messages the transport is still sending (a response may still be on its way after its call ended). */
  sendsPending: number;
  /** Set by `app.close()` while it waits for `sendsPending` to reach 0: called when it does. */
  whenAllSent: (() => void) | undefined;
  /** Authenticated principals seen on this session (`principal:<id>`), for owner-targeted notifications. */
  readonly principals: Set<string>;
  /** Aborts every running call of the session when it ends. */
  readonly lifetime: AbortController;
  /**
   * True for one request of a stateless HTTP server: nothing outlives the request, so
   * requests to the client and subscriptions are refused and notifications go nowhere else.
   */
  readonly stateless?: boolean | undefined;
}

/** A 2025 session served by its own SDK 1.x server (`app.connect`). */
export interface ServedSession extends Session {
  readonly server: Server;
  /**
   * Whether this instance sends the session's notifications outside calls (unset: it
   * does). A shared session's copy does not while another instance holds its GET stream.
   */
  notifiesHere?: (() => boolean) | undefined;
}

/**
 * A new session's state, named by `id` (read when asked: an HTTP session's id is set by its
 * transport once `initialize` is answered), whose client declared `clientCapabilities`.
 */
export function newSession(
  id: () => string,
  clientCapabilities: () => ClientCapabilities | undefined,
  stateless = false,
): Session {
  return {
    id,
    clientCapabilities,
    logLevel: undefined,
    subscriptions: new Set(),
    inFlight: new SteadyMap(),
    unanswered: new SteadyMap(),
    whenAllAnswered: undefined,
    cut: new Set(),
    sendsPending: 0,
    whenAllSent: undefined,
    principals: new Set(),
    lifetime: new AbortController(),
    stateless,
  };
}

const SEVERITY: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

/** Whether a message at `level` passes a `logging/setLevel` threshold (none set: every level does). */
export function levelPasses(threshold: LoggingLevel | undefined, level: LoggingLevel): boolean {
  return threshold === undefined || SEVERITY[level] >= SEVERITY[threshold];
}

/** Whether `owner` (`session:<id>` or `principal:<id>`) is this session or acts through it. */
export function sessionServes(session: Session, owner: string): boolean {
  return owner === `session:${session.id()}` || session.principals.has(owner);
}
