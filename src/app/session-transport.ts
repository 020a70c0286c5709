import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CancelledNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { screenParams } from "../protocol/registrar-2025/screen-params.js";
import type { Session } from "../protocol/session.js";
import { WrappedTransport } from "../transports/wrapped-transport.js";
import { SHUTTING_DOWN, settleRequest, shutdownError, trackSends } from "./drain.js";

/** What the app's screen asks of the app at each request. */
export interface RequestScreen {
  /** Whether the app is draining: a request is then refused at once (its handler never starts). */
  draining(): boolean;
  /** How deep a request's params may nest (`inputLimits.maxDepth`). */
  readonly maxInputDepth: number;
}

/**
 * The transport a 2025 session's SDK server connects to: between it and `transport`, the app
 * tracks every request until it is answered and every message until it is sent (so `close()`
 * can wait for them, and answer a request it cuts), and screens requests: while the app
 * drains, a request is answered at once with an error; a request whose params nest too deep
 * is refused before the SDK parses it.
 *
 * @example
 * await server.connect(sessionTransport(transport, session, { draining: () => false, maxInputDepth: 64 }));
 */
export function sessionTransport(
  transport: Transport,
  session: Session,
  screen: RequestScreen,
): WrappedTransport {
  const wrapped: WrappedTransport = new WrappedTransport(transport, {
    send: trackSends(session),
    receive: (message, extra, deliver) => {
      // Transports hand over messages already checked as JSON-RPC: a request is one with a
      // method and an id. (The SDK's `isJSONRPCRequest` runs a zod parse, a cost on every call.)
      if ("method" in message && "id" in message) {
        if (screen.draining()) {
          void wrapped.send(shutdownError(message.id, SHUTTING_DOWN)).catch(() => {});
          return;
        }
        const refused = screenParams(message.id, message.method, message.params, screen.maxInputDepth);
        if (refused) {
          void wrapped.send(refused).catch(() => {});
          return;
        }
        session.unanswered.set(message.id, message.method);
      } else if ("method" in message && message.method === "notifications/cancelled") {
        const cancelled = CancelledNotificationSchema.safeParse(message);
        const id = cancelled.success ? cancelled.data.params.requestId : undefined;
        if (id !== undefined) settleRequest(session, id);
      }
      deliver(message, extra);
    },
  });
  return wrapped;
}
