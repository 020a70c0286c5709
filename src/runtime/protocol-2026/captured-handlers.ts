import type { Server as ServerV1 } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestExtra } from "../call-context.js";

/** A 1.x request handler, as the registrar's protocol-area modules install it. */
export type CapturedHandler = (request: { method: string; params?: unknown }, extra: RequestExtra) => unknown;

/**
 * Captures the handlers the 1.x registrar installs, keyed by method, instead of installing
 * them on an SDK 1.x `Server`. The 2026 registrar then installs the very same handlers on
 * an SDK v2 `Server` by method name: one implementation of every protocol area serves both
 * SDKs, and only the request/extra shapes are adapted at the edge.
 */
export function capturingServer(): { server: ServerV1; handlers: Map<string, CapturedHandler> } {
  const handlers = new Map<string, CapturedHandler>();
  const server = {
    setRequestHandler(schema: { shape: { method: { value: string } } }, handler: CapturedHandler) {
      handlers.set(schema.shape.method.value, handler);
    },
  };
  return { server: server as unknown as ServerV1, handlers };
}
