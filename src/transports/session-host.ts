import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../logging/logger.js";

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
   */
  connect(transport: Transport, options?: { stateless?: boolean }): Promise<void>;
  readonly logger: Logger;
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
