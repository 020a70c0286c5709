import type { ServerContext } from "@modelcontextprotocol/server";
import { asRequestExtra, envelopeFields, namesLogLevel, sendOnContext } from "../../sdk/sdk-v2-adapter.js";
import type { RequestExtra } from "../calls/call-context.js";
import { inputKeyOf } from "../calls/client-questions.js";
import { type RequestEnvelope, withEnvelope } from "../calls/request-envelope.js";

/** The protocol era one SDK v2 server instance serves. */
type Era = "legacy" | "modern";

/**
 * Asks the client for input on a 2026-07-28 request (replay), under the key the handler
 * named, if any; legacy requests push a request instead.
 */
type AskOnModern = (request: { method: string; params?: unknown }, key?: string) => Promise<unknown>;

/**
 * The 1.x `extra` the pipeline and `ToolContext` read, made from an SDK v2 handler
 * context. On a 2026-07-28 request there is no server-to-client request channel, so
 * `sendRequest` (elicit, sample) goes to `askOnModern`, and log messages go out only when
 * the request's envelope names a level.
 */
export function extraOf(ctx: ServerContext, era: Era, askOnModern: AskOnModern): RequestExtra {
  const modern = era === "modern";
  const loggingOff = modern && !namesLogLevel(ctx);
  const extra = {
    signal: ctx.mcpReq.signal,
    authInfo: ctx.http?.authInfo,
    sessionId: ctx.sessionId,
    _meta: ctx.mcpReq._meta,
    requestId: ctx.mcpReq.id,
    sendNotification: (notification: { method: string; params?: Record<string, unknown> }) => {
      if (loggingOff && notification.method === "notifications/message") return Promise.resolve();
      return ctx.mcpReq.notify(notification);
    },
    sendRequest: (
      request: { method: string; params?: unknown },
      _schema: unknown,
      options?: { signal?: AbortSignal },
    ) => (modern ? askOnModern(request, inputKeyOf(options)) : sendOnContext(ctx, request, options?.signal)),
    closeSSEStream: ctx.http?.closeSSE,
  };
  return modern ? withEnvelope(asRequestExtra(extra), envelopeFrom(ctx)) : asRequestExtra(extra);
}

/** The request's envelope: its log level and its client's capabilities. */
function envelopeFrom(ctx: ServerContext): RequestEnvelope {
  return { ...envelopeFields(ctx), outcome: undefined };
}
