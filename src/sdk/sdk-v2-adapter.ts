import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  ClientCapabilities,
  LoggingLevel,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { fieldOf } from "../common/guards.js";

/** The 1.x `extra` of a request handler, which the pipeline reads whatever the era. */
type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The one place where frugal-mcp's code meets the SDK v2 packages' types loosely. The
 * operation table is protocol-neutral (a method name, a request of unknown shape, a result
 * of unknown shape, the 1.x `extra`), while the v2 `Server` types each handler by its
 * method; these functions carry the few casts that bridge the two, so the registrar and the
 * request adapter call typed functions instead of casting.
 */

/** A request as the operation table takes it: a method and params of unknown shape. */
export type CapturedRequest = { method: string; params?: Record<string, unknown> };

/**
 * Installs `handler` for `method` on a v2 `Server`. The SDK types each handler by its method;
 * the table's handlers are protocol-neutral, and the SDK validates each request against its
 * method's schema before the handler runs.
 *
 * @example
 * ```ts
 * installV2Handler(server, "tools/call", async (request, ctx) => handle(unit, request, extraOf(ctx, era, ask)));
 * ```
 */
export function installV2Handler(
  server: Server,
  method: string,
  handler: (request: CapturedRequest, ctx: ServerContext) => Promise<unknown>,
): void {
  server.setRequestHandler(method as never, handler as never);
}

/**
 * A `tools/call` result through the SDK's codec for the era the server serves; the pipeline
 * shaped it as a `CallToolResult` already.
 *
 * @example
 * ```ts
 * return projectToolResult(server, result, outputSchema);
 * ```
 */
export function projectToolResult(
  server: Server,
  result: unknown,
  outputSchema: Record<string, unknown> | undefined,
): unknown {
  return server.projectCallToolResult(result as never, outputSchema);
}

/**
 * Sends a server-to-client request (elicit, sample) on a legacy request's channel; the 1.x
 * `extra.sendRequest` the pipeline calls takes any request.
 *
 * @example
 * ```ts
 * await sendOnContext(ctx, { method: "elicitation/create", params }, signal);
 * ```
 */
export function sendOnContext(
  ctx: ServerContext,
  request: { method: string; params?: unknown },
  signal: AbortSignal | undefined,
): Promise<unknown> {
  return ctx.mcpReq.send(request as never, signal ? { signal } : undefined);
}

/**
 * The 1.x `RequestHandlerExtra` the pipeline reads, from the fields an SDK v2 handler context
 * gives: the same names and shapes, but 1.x types `sendRequest` and `sendNotification` by
 * its own request and notification unions.
 *
 * @example
 * ```ts
 * const extra = asRequestExtra({ signal: ctx.mcpReq.signal, requestId: ctx.mcpReq.id, sendNotification, sendRequest });
 * ```
 */
export function asRequestExtra(extra: object): RequestExtra {
  return extra as unknown as RequestExtra;
}

/** What a 2026-07-28 request's envelope (`_meta`) says: its log level and its client's capabilities. */
interface V2Envelope {
  readonly logLevel: LoggingLevel | undefined;
  readonly capabilities: ClientCapabilities | undefined;
}

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

/**
 * True when the request's envelope names a log level; the SDK checked its shape already.
 *
 * @example
 * ```ts
 * const loggingOff = modern && !namesLogLevel(ctx);
 * ```
 */
export function namesLogLevel(ctx: ServerContext): boolean {
  return fieldOf(ctx.mcpReq.envelope, LOG_LEVEL) !== undefined;
}

/**
 * The log level and client capabilities a request's envelope carries, as the SDK validated
 * them (its `RequestMetaEnvelope` type leaves them open).
 *
 * @example
 * ```ts
 * const { logLevel, capabilities } = envelopeFields(ctx);
 * ```
 */
export function envelopeFields(ctx: ServerContext): V2Envelope {
  return {
    logLevel: fieldOf(ctx.mcpReq.envelope, LOG_LEVEL) as LoggingLevel | undefined,
    capabilities: fieldOf(ctx.mcpReq.envelope, CLIENT_CAPABILITIES) as ClientCapabilities | undefined,
  };
}
