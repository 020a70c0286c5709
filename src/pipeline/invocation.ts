import type { OperationDefinition } from "../builder/definitions.js";
import type { ToolContext } from "../runtime/tool-context.js";

/** The state of one call as it passes through the pipeline. */
export interface Invocation {
  readonly definition: OperationDefinition;
  /** Arguments as the client sent them (tool arguments, template variables, prompt arguments). */
  readonly args: Record<string, unknown>;
  /** The validated, typed input; set by the `validate` stage. */
  input: unknown;
  readonly ctx: ToolContext;
  /** For resource reads: the concrete URI requested. */
  readonly uri: string | undefined;
}

/** Runs the rest of the pipeline and resolves with its result. */
export type Next = () => Promise<unknown>;

/**
 * One step of the pipeline. A stage may act before calling `next()` (validate, look up a
 * cache), after it (paginate, budget, shape), or instead of it (a cache hit, a refusal).
 */
export type Stage = (invocation: Invocation, next: Next) => Promise<unknown>;
