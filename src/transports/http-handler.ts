import type { IncomingMessage, ServerResponse } from "node:http";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { AuthOptions } from "./authenticate.js";
import type { ConnectionLimitOptions } from "./connection-limits.js";
import type { HostPolicy } from "./host-guard.js";
import type { SharedEventStore } from "./scoped-event-store.js";

/** Default `sessionIdleTimeoutMs`: 30 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** Default `maxSessions`. */
export const DEFAULT_MAX_SESSIONS = 1000;
/** Default `eventStoreTotalBytes`: 256 MiB. */
export const DEFAULT_EVENT_STORE_TOTAL_BYTES = 256 * 1024 * 1024;

/** Options of the Streamable HTTP handler. */
export interface HttpHandlerOptions extends HostPolicy, AuthOptions, ConnectionLimitOptions {
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
