import {
  type ClientCapabilities,
  type Implementation,
  isInitializeRequest,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { SessionRecord } from "../sessions/session-store.js";

/** The answer when the session store cannot be read: nothing is served on a session that was not checked. */
export const SESSION_STORE_UNAVAILABLE =
  "Session store unavailable: this session could not be checked (the shared session store did not answer); retry shortly";

/**
 * The record of a session opened by `body` (an `initialize` request, checked by the
 * front door): what its client declared, and the protocol version the SDK will answer
 * with (the client's, when supported, else the latest), as the SDK's server negotiates it.
 */
export function initialRecord(id: string, body: unknown, principal: string | undefined): SessionRecord {
  const messages = Array.isArray(body) ? body : [body];
  const initialize = messages.find((m) => isInitializeRequest(m)) as
    | {
        params: {
          protocolVersion: string;
          capabilities: ClientCapabilities;
          clientInfo: Implementation;
        };
      }
    | undefined;
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
