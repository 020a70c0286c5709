import { isProtocolError } from "../../errors/protocol-errors.js";
import type { Logger } from "../../logging/logger.js";
import { toolError } from "../../results/tool-error.js";
import type { ToolDefinition } from "../operation.js";

/**
 * What a tool answers when its handler (or an interceptor) throws: an `isError` result with
 * the error's message only. The server's log gets the error itself, stack included: at
 * `warn` when the handler (or a later stage) failed, at `debug` when an interceptor refused
 * the call on purpose (an interceptor logs its own refusals, as `RequireScope` does). A
 * protocol error (`invalidParams`, …) is rethrown: it answers as a JSON-RPC error.
 */
export function failedCallResult(
  definition: ToolDefinition,
  error: unknown,
  logger: Logger,
  thrownBy: "handler" | "interceptor" = "handler",
) {
  if (isProtocolError(error)) throw error;
  const message = error instanceof Error ? error.message : String(error);
  if (thrownBy === "interceptor")
    logger.debug(
      `tool "${definition.name}" (${definition.where}) was refused by an interceptor: ${message}`,
      error,
    );
  else logger.warn(`tool "${definition.name}" (${definition.where}) failed: ${message}`, error);
  return toolError(message);
}
