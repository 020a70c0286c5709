import type { ClientCapabilities, Implementation, LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { InjectionToken } from "tsyringe";
import type { OnceRecords } from "../common/once-records.js";

/**
 * What a 2025-11-25 Streamable HTTP session is, kept where every instance serving it can
 * read it: enough to rebuild the session's SDK server on any instance.
 */
export interface SessionRecord {
  /** The `Mcp-Session-Id`. */
  readonly id: string;
  /** The protocol version negotiated at `initialize`. */
  readonly protocolVersion: string;
  /** The client's `clientInfo` from `initialize`. */
  readonly clientInfo: Implementation | undefined;
  /** The capabilities the client declared at `initialize`. */
  readonly clientCapabilities: ClientCapabilities;
  /** Set by `logging/setLevel` (none: every level is sent). */
  readonly logLevel: LoggingLevel | undefined;
  /** The principal that opened the session: it serves that principal only (none: anyone holding the id). */
  readonly principal: string | undefined;
  /** URIs subscribed to with `resources/subscribe`. */
  readonly subscriptions: readonly string[];
  /** The instance holding the session's standalone GET stream now, which sends its notifications (none: no stream open). */
  readonly streamHolder: string | undefined;
  /** When the session was opened (epoch ms). */
  readonly createdAt: number;
  /** When a request of the session last arrived, on any instance (epoch ms). */
  readonly lastActiveAt: number;
}

/** One change to a session's record (the fields a request may change after `initialize`). */
export interface SessionChange {
  /** `logging/setLevel`. */
  readonly logLevel?: LoggingLevel;
  /** `resources/subscribe`. */
  readonly subscribe?: string;
  /** `resources/unsubscribe`. */
  readonly unsubscribe?: string;
  /** The instance that opened the session's GET stream. */
  readonly holder?: string;
  /** The instance whose GET stream closed: it stops being the holder (unless another took over already). */
  readonly release?: string;
}

/** Bounds a store enforces when it opens or touches a session. */
export interface SessionLimits {
  /** Sessions open at once, over every instance sharing the store. */
  readonly maxSessions: number;
  /** A session without a request for this long ends (0 or `Infinity`: never). */
  readonly idleTimeoutMs: number;
}

/**
 * Where 2025-11-25 sessions live (token `SESSION_STORE`). `MemorySessionStore` (the
 * default) keeps them in the instance that opened them: behind a load balancer, keep each
 * client on one instance. `RedisSessionStore` shares them: any instance serves any request
 * of any session, with `maxSessions` and idle expiry held across instances.
 *
 * @example
 * ```ts
 * providers: [{ provide: SESSION_STORE, useValue: new RedisSessionStore({ url: process.env.REDIS_URL }) }]
 * ```
 */
export interface SessionStore {
  /**
   * Whether other instances read this store: then an instance serves a session it does not
   * hold by rebuilding it from its record, and dropping its local copy (idle here, or the
   * instance stopping) leaves the session open for the others.
   */
  readonly shared: boolean;
  /**
   * Opens `record` unless `maxSessions` are open already (then resolves false), in one step
   * that no other instance can interleave with. The store sets `createdAt` and `lastActiveAt`.
   */
  open(record: SessionRecord, limits: SessionLimits): Promise<boolean>;
  /** The record of a live session (counts as its activity), or `undefined` when it ended or never existed. */
  get(id: string, limits: SessionLimits): Promise<SessionRecord | undefined>;
  /** Marks activity of a live session; resolves false when it ended (or never existed). */
  touch(id: string, limits: SessionLimits): Promise<boolean>;
  /** Applies `change` to a live session's record (nothing, when it ended). */
  update(id: string, change: SessionChange): Promise<void>;
  /** Ends a session everywhere; resolves whether it was live. */
  delete(id: string): Promise<boolean>;
  /** Sessions live now (expired ones not counted). */
  count(): Promise<number>;
  /**
   * Delivers `message` to the instance listening on `channel` (a shared store carries
   * messages between the instances serving one session: a client's answer to a request
   * another instance asked). Resolves how many listeners received it (0: nobody listens there).
   */
  publish?(channel: string, message: string): Promise<number>;
  /** Listens on `channel` until the returned function is called. */
  listen?(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /**
   * Records that must hold once across every instance sharing this store (the single
   * completion of a 2026-07-28 request state), offered by a shared store; the app uses a
   * shared cache's records first, then these, else its own memory.
   */
  readonly records?: OnceRecords;
  /** Connects (`McpFactory.create` waits for it briefly). */
  ready?(): Promise<void>;
  /** Releases connections; called when the app closes. */
  close?(): Promise<void>;
}

/** Where 2025-11-25 sessions live: `MemorySessionStore` by default, `RedisSessionStore` to share them. */
export const SESSION_STORE: InjectionToken<SessionStore> = Symbol.for("frugal-mcp.SESSION_STORE");

/** The expiry of a session active now, or `Infinity` when idle sessions never end. */
export function idleDeadline(now: number, idleTimeoutMs: number): number {
  return idleTimeoutMs > 0 && Number.isFinite(idleTimeoutMs) ? now + idleTimeoutMs : Number.POSITIVE_INFINITY;
}
