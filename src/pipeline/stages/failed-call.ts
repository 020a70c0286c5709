import { isProtocolError } from "../../errors/protocol-errors.js";
import type { Logger } from "../../logging/logger.js";
import { toolError } from "../../results/tool-error.js";
import type { ToolDefinition } from "../operation.js";

/**
 * What a tool answers when its handler (or an interceptor) throws: an `isError` result with
 * the error's message only (the stack stays in the server's log). A protocol error
 * (`invalidParams`, …) is rethrown: it answers as a JSON-RPC error.
 */
export function failedCallResult(definition: ToolDefinition, error: unknown, logger: Logger) {
  if (isProtocolError(error)) throw error;
  logger.debug(`tool "${definition.name}" (${definition.where}) failed`, error);
  return toolError(error instanceof Error ? error.message : String(error));
}
