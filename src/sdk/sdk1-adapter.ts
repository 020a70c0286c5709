import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type {
  JSONRPCMessage,
  ReadResourceResult,
  ServerNotification,
  ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod/v4";

/**
 * The one place where frugal-mcp's code meets the types of `@modelcontextprotocol/sdk`
 * (1.x) loosely: its protocol-neutral values (a method's schema, a result of unknown shape,
 * a message it wrote or parsed itself) become the SDK's types here, so the registrar, the
 * calls and the transports call typed functions instead of casting. (`transports/session-revival.ts`
 * holds the other edge: the SDK's private fields a revived session sets.)
 */

/** A request schema of the SDK (`CallToolRequestSchema`, …): a `method` literal and its `params`. */
type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string>; params: z.ZodType }>;

/**
 * Installs `handle` for the requests `schema` parses on an SDK 1.x `Server`. The SDK types a
 * handler's result by the method; the operation table's handlers are protocol-neutral and
 * answer with the result the pipeline shaped for that method.
 *
 * @example
 * ```ts
 * installHandler(server, CallToolRequestSchema, (request, extra) => handle(session, request, extra));
 * ```
 */
export function installHandler<S extends RequestSchema>(
  server: Server,
  schema: S,
  handle: (request: z.infer<S>, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => unknown,
): void {
  server.setRequestHandler(schema, (request, extra) => handle(request, extra) as never);
}

/**
 * A JSON-RPC message that frugal-mcp wrote itself (an answer it made, a message it stored or
 * relayed and parsed back), as the SDK's transports take it. Not a check: a message from a
 * client goes through the SDK's own schema.
 *
 * @example
 * ```ts
 * await send(eventId, asMessage(JSON.parse(stored)));
 * ```
 */
export function asMessage(message: unknown): JSONRPCMessage {
  return message as JSONRPCMessage;
}

/**
 * What a `resources/read` pipeline answered: the shape stage made it a `ReadResourceResult`
 * (the pipeline types its results as `unknown`, whatever the operation).
 *
 * @example
 * ```ts
 * const result = asReadResult(await operation.execute(invocation));
 * ```
 */
export function asReadResult(result: unknown): ReadResourceResult {
  return result as ReadResourceResult;
}
