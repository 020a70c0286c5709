import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ToolDefinition } from "../../builder/definitions.js";
import { describeZodError } from "../../errors/describe-zod-error.js";
import { isProtocolError } from "../../errors/protocol-errors.js";
import type { Logger } from "../../logging/logger.js";
import { shapePromptResult } from "../../results/shape-prompt-result.js";
import { shapeResourceResult } from "../../results/shape-resource-result.js";
import { shapeToolResult } from "../../results/shape-tool-result.js";
import { toolError } from "../../results/tool-error.js";
import type { Stage } from "../invocation.js";
import type { StageFactory } from "../stage-factory.js";

/**
 * Shapes the handler's value into the protocol result of its kind. For tools, a thrown
 * error becomes an `isError` result carrying only its message (the stack goes to the
 * server's log, never to the client), and a declared `outputSchema` is enforced.
 */
export const shapeStage: StageFactory = {
  name: "shape",
  create(definition, env) {
    switch (definition.kind) {
      case "tool":
        return toolShaper(definition, env.logger);
      case "resource":
        return async (invocation, next) =>
          shapeResourceResult(await next(), invocation.uri ?? definition.uri, definition.mimeType);
      case "prompt":
        return async (_invocation, next) => shapePromptResult(await next(), definition.listing.description);
    }
  },
};

function toolShaper(definition: ToolDefinition, logger: Logger): Stage {
  return async (_invocation, next) => {
    let result: CallToolResult;
    try {
      result = shapeToolResult(await next());
    } catch (error) {
      if (isProtocolError(error)) throw error;
      logger.debug(`tool "${definition.name}" (${definition.where}) failed`, error);
      return toolError(error instanceof Error ? error.message : String(error));
    }
    if (!definition.outputSchema || result.isError) return result;
    // An undeclared shape is a server bug: say so plainly rather than send data the client will reject.
    if (!result.structuredContent) {
      return toolError(
        `Tool "${definition.name}" declares an outputSchema but returned no structured content.`,
      );
    }
    const checked = definition.outputSchema.safeParse(result.structuredContent);
    if (checked.success) return result;
    logger.error(
      `tool "${definition.name}" (${definition.where}) broke its outputSchema`,
      checked.error.issues,
    );
    return toolError(
      `Tool "${definition.name}" returned a result that does not match its outputSchema: ${describeZodError(checked.error)}`,
    );
  };
}
