import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describeZodError } from "../../errors/describe-zod-error.js";
import type { Logger } from "../../logging/logger.js";
import { toolError } from "../../results/tool-error.js";
import type { TokenCounter } from "../../tokenizer/token-counter.js";
import type { Invocation, Stage } from "../invocation.js";
import type { ToolDefinition } from "../operation.js";
import { Oversized, ResultPage } from "../outcomes.js";
import { shapeResult } from "../shape-result.js";
import type { StageFactory } from "../stage-factory.js";
import { failedCallResult } from "./failed-call.js";

/** What the shape stage works with. */
export interface ShapeStageDeps {
  readonly logger: Logger;
  /** Counts tokens to choose between a table and JSON for a tool's text. */
  readonly counter: TokenCounter;
}

/**
 * Shapes the handler's value into the protocol result of its kind. For tools, a thrown
 * error becomes an `isError` result carrying only its message (the stack goes to the
 * server's log, never to the client), and a declared `outputSchema` is enforced.
 */
export function shapeStage(deps: ShapeStageDeps): StageFactory {
  const { counter } = deps;
  return {
    name: "shape",
    create(definition) {
      if (definition.kind === "tool") return toolShaper(definition, deps);
      return async (invocation, next) => shapeResult(invocation, servable(invocation, await next()), counter);
    },
  };
}

function toolShaper(definition: ToolDefinition, { logger, counter }: ShapeStageDeps): Stage {
  return async (invocation, next) => {
    let result: CallToolResult;
    try {
      result = (await shapeResult(invocation, servable(invocation, await next()), counter)) as CallToolResult;
    } catch (error) {
      return failedCallResult(definition, error, logger);
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

/**
 * An oversized value that no stage served (a stage missing from the pipeline) is a server
 * bug, not a result. A page is final here (the budget has shrunk it): its size goes to the
 * call's outcome, for statistics and traces.
 */
function servable(invocation: Invocation, value: unknown): unknown {
  if (value instanceof Oversized)
    throw new Error("a result over its token limit reached the shape stage unserved");
  if (value instanceof ResultPage) invocation.outcome.pageCount = value.count;
  return value;
}
