import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../logging/logger.js";
import type { SessionChange, SessionRecord, SessionStore } from "../sessions/session-store.js";

/** How an HTTP session is tied to its record in the session store. */
export interface SessionBinding {
  /** The record to rebuild the session from, when it was opened on another instance. */
  readonly revive?: SessionRecord | undefined;
  /** Saves a change a request made (log level, subscriptions) where every instance reads it. */
  persist(change: SessionChange): Promise<void>;
  /**
   * Registers how to apply the session's record when a request finds it changed by another
   * instance (a log level or a subscription set there): called before each request is served.
   */
  follow(apply: (record: SessionRecord) => void): void;
  /**
   * Whether closing the transport now ends the session (DELETE, or an unshared session),
   * not only this instance's copy of a shared one: what belongs to the session is dropped then.
   */
  endsOnClose(): boolean;
  /**
   * Whether this instance sends the session's notifications outside calls (resource
   * updates): true unless the session is shared and its GET stream is held elsewhere.
   */
  notifiesHere(): boolean;
  /**
   * Puts a layer between the app's view of the session's transport and its SDK server (a
   * shared session's relay): called once, before the server connects, with the transport
   * the app tracks; the server connects to what it returns.
   */
  wrap?(transport: Transport): Transport;
}

/**
 * What a transport listener needs from the app: a way to serve one session over an SDK
 * transport, and a logger. Transports depend on this, not on the app, so the app can
 * depend on them.
 */
export interface SessionHost {
  /**
   * Serves one session over `transport` with its own SDK server; resolves once it started.
   * `stateless`: the session serves one request of a stateless HTTP server (no
   * server-to-client requests, no subscriptions, no notifications outside the request).
   * `session`: the session's record in the session store (HTTP sessions).
   */
  connect(transport: Transport, options?: { stateless?: boolean; session?: SessionBinding }): Promise<void>;
  readonly logger: Logger;
  /** Where sessions live (the `SESSION_STORE` token); without one, each HTTP handler keeps its own in memory. */
  readonly sessionStore?: SessionStore | undefined;
  /** True once the host is closing: listeners refuse new sessions (HTTP 503) instead of failing them. */
  readonly draining?: boolean | undefined;
  /**
   * The principal that a request's auth info stands for (the one that owns its data), or
   * `undefined` when it identifies nobody. An HTTP session opened by a principal serves
   * that principal only. Without it, the handler compares `auth.clientId`.
   */
  principalOf?(auth: AuthInfo): string | undefined;
  /**
   * The operations whose data belongs to each owner (`ArticlesService.search (@Ephemeral,
   * scope "owner")`): a stateless HTTP server refuses to start without authentication
   * when there are any.
   */
  ownerScopedFeatures?(): readonly string[];
}
