import {
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logging/logger.js";
import type { SessionRecord } from "../sessions/session-store.js";

/** The answer when the session store cannot be read: nothing is served on a session that was not checked. */
export const SESSION_STORE_UNAVAILABLE =
  "Session store unavailable: this session could not be checked (the shared session store did not answer); retry shortly";

/** How often, at most, a failing session store is logged (each request it fails answers 503 anyway). */
const OUTAGE_LOG_INTERVAL_MS = 5_000;

/**
 * Logs session-store failures as warnings, at most one per 5 s (with how many were not
 * logged since): during an outage every request fails the same way.
 */
export function outageLog(logger: Logger): (what: string, error: unknown) => void {
  let lastAt = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return (what, error) => {
    const now = Date.now();
    if (now - lastAt < OUTAGE_LOG_INTERVAL_MS) {
      unlogged++;
      return;
    }
    const more = unlogged > 0 ? ` (and ${unlogged} more session-store failures since the last warning)` : "";
    lastAt = now;
    unlogged = 0;
    logger.warn(`${what} failed${more}`, error);
  };
}

/**
 * The record of a session opened by `body` (an `initialize` request, checked by the
 * front door): what its client declared, and the protocol version the SDK will answer
 * with (the client's, when supported, else the latest), as the SDK's server negotiates it.
 */
export function initialRecord(id: string, body: unknown, principal: string | undefined): SessionRecord {
  const messages = Array.isArray(body) ? body : [body];
  const initialize = messages.find((m) => isInitializeRequest(m));
  const requested = initialize?.params.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  return {
    id,
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
    clientInfo: initialize?.params.clientInfo,
    clientCapabilities: initialize?.params.capabilities ?? {},
    logLevel: undefined,
    principal,
    subscriptions: [],
    streamHolder: undefined,
    createdAt: 0,
    lastActiveAt: 0,
  };
}
