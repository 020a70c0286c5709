import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Logger } from "../logging/logger.js";

/**
 * What a transport listener needs from the app: a way to serve one session over an SDK
 * transport, and a logger. Transports depend on this, not on the app, so the app can
 * depend on them.
 */
export interface SessionHost {
  /** Serves one session over `transport` with its own SDK server; resolves once it started. */
  connect(transport: Transport): Promise<void>;
  readonly logger: Logger;
}
