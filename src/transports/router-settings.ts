import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { MemorySessionStore } from "../sessions/memory-session-store.js";
import type { SessionLimits, SessionStore } from "../sessions/session-store.js";
import {
  DEFAULT_EVENT_STORE_TOTAL_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  type HttpHandlerOptions,
} from "./http-handler.js";
import { checkedOption, sharedEventStore } from "./http-session.js";
import { DEFAULT_EVENT_STORE_MAX_BYTES, EventStoreBudget, MemoryEventStore } from "./memory-event-store.js";
import { ScopedEventStore, type SharedEventStore } from "./scoped-event-store.js";
import type { SessionHost } from "./session-host.js";
import { canRelay, SessionRelay } from "./session-relay.js";
import { statelessSettingsProblem } from "./stateless-checks.js";

/** What the session router reads from its options, checked once when it is made. */
export interface RouterSettings {
  /** `sessionIdleTimeoutMs`: 0 or Infinity keep a session until it is ended. */
  readonly idleTimeoutMs: number;
  readonly maxSessions: number;
  readonly limits: SessionLimits;
  /** How often an open request touches a shared session's record (0: never). */
  readonly keepAliveMs: number;
  /** The session store (the app's, or one in memory). */
  readonly store: SessionStore;
  /** Sessions live in a store other instances read: any instance serves any request of any session. */
  readonly sharedSessions: boolean;
  /** Carries a client's answer to the instance whose call asked (a shared session's POSTs land anywhere). */
  readonly relay: SessionRelay | undefined;
  /** The one event store every session shares, when `eventStore` is one. */
  readonly sharedEvents: SharedEventStore | undefined;
  /** Makes the event store of session `sessionId`; none: its streams cannot be resumed. */
  readonly makeEventStore: ((sessionId: string) => EventStore) | undefined;
  readonly stateless: boolean;
}

/**
 * Checks the HTTP options the session router reads and derives what it needs from them; a
 * bad value fails here, when the handler is made, naming the option.
 *
 * @example
 * const { maxSessions, limits } = routerSettings(app, { maxSessions: 100 });
 */
export function routerSettings(app: SessionHost, options: HttpHandlerOptions): RouterSettings {
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
  const sharedEvents = sharedEventStore(options.eventStore);
  const store = app.sessionStore ?? new MemorySessionStore();
  const sharedSessions = store.shared;
  const stateless = options.stateless === true;
  if (stateless) {
    const problem = statelessSettingsProblem(app, options);
    if (problem) throw new Error(problem);
  }
  return {
    idleTimeoutMs,
    maxSessions,
    limits: { maxSessions, idleTimeoutMs },
    keepAliveMs:
      idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs) ? Math.max(1000, Math.floor(idleTimeoutMs / 3)) : 0,
    store,
    sharedSessions,
    relay: sharedSessions && canRelay(store) ? new SessionRelay(store, app.logger) : undefined,
    sharedEvents,
    makeEventStore: eventStoreMaker(options, sharedEvents, eventStoreMaxBytes, eventStoreTotalBytes),
    stateless,
  };
}

function eventStoreMaker(
  options: HttpHandlerOptions,
  shared: SharedEventStore | undefined,
  maxBytes: number,
  totalBytes: number,
): ((sessionId: string) => EventStore) | undefined {
  const option = options.eventStore;
  if (option === false) return undefined;
  // One view per session (the same on every instance): a session resumes only its own streams.
  if (shared) return (sessionId) => new ScopedEventStore(shared, sessionId);
  if (typeof option === "function") return () => option();
  // The memory stores of every session together stay under eventStoreTotalBytes.
  const budget = new EventStoreBudget(totalBytes);
  return () => new MemoryEventStore({ maxBytes, budget });
}
