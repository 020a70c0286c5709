import type { z } from "zod";
import { describeZodError } from "../../errors/describe-zod-error.js";
import { invalidParams } from "../../errors/protocol-errors.js";
import { toolError } from "../../results/tool-error.js";
import type { Invocation, Next } from "../invocation.js";
import type { OperationDefinition } from "../operation.js";
import type { StageFactory } from "../stage-factory.js";
import { exceededInputLimit, type InputLimits } from "./measure-input.js";

/**
 * Refuses oversized arguments, then validates them with the operation's zod schema.
 * Invalid tool arguments answer `isError: true` (the model can fix them); invalid
 * resource or prompt arguments answer JSON-RPC `-32602`.
 */
export function validateStage(limits: InputLimits): StageFactory {
  return {
    name: "validate",
    create(definition) {
      const schema = definition.inputSchema;
      // Not async: a valid call goes straight on to `next()`, without a wait of its own.
      return (invocation, next) => {
        const tooLarge = exceededInputLimit(invocation.args, limits);
        if (tooLarge) return refused(definition, tooLarge);
        if (!schema) {
          invocation.input = invocation.args;
          return next();
        }
        let parsed: ReturnType<typeof schema.safeParse>;
        try {
          parsed = schema.safeParse(invocation.args);
        } catch {
          // Only schemas with async refinements land here; the sync path is much faster for the rest.
          return validateAsync(schema, definition, invocation, next);
        }
        if (!parsed.success) return refused(definition, describeZodError(parsed.error));
        invocation.input = parsed.data;
        return next();
      };
    },
  };
}

async function validateAsync(
  schema: z.ZodObject,
  definition: OperationDefinition,
  invocation: Invocation,
  next: Next,
): Promise<unknown> {
  const parsed = await schema.safeParseAsync(invocation.args);
  if (!parsed.success) return refuse(definition, describeZodError(parsed.error));
  invocation.input = parsed.data;
  return next();
}

/** The refusal as the stage's promise: a tool's `isError` result, or a rejection with `-32602`. */
function refused(definition: OperationDefinition, problem: string): Promise<unknown> {
  try {
    return Promise.resolve(refuse(definition, problem));
  } catch (error) {
    return Promise.reject(error);
  }
}

function refuse(definition: OperationDefinition, problem: string): never | ReturnType<typeof toolError> {
  const what = `${definition.kind} "${definition.kind === "resource" ? definition.uri : definition.name}"`;
  const message = `Invalid arguments for ${what}: ${problem}`;
  if (definition.kind === "tool") return toolError(message);
  throw invalidParams(message);
}
