import type { OperationDefinition } from "../builder/definitions.js";
import type { CursorBinding } from "../pagination/cursor-codec.js";
import type { KeyValue } from "../pagination/cursor-values.js";
import type { StreamWindow } from "../pagination/stream-window.js";
import type { CallContext } from "../runtime/call-context.js";

/** The state of one call as it passes through the pipeline. */
export interface Invocation {
  readonly definition: OperationDefinition;
  /** Arguments as the client sent them (tool arguments, template variables, prompt arguments). */
  readonly args: Record<string, unknown>;
  /** The validated, typed input; set by the `validate` stage. */
  input: unknown;
  readonly ctx: CallContext;
  /** For resource reads: the concrete URI requested. */
  readonly uri: string | undefined;
  /** Under `@Paginated`: the decoded page request; set by the `decodeCursor` stage. */
  page?: PageRequest;
}

/** A decoded page request: where to start, how many, which fields, and what cursors bind to. */
export interface PageRequest {
  readonly after: Readonly<Record<string, KeyValue>> | null;
  readonly limit: number;
  readonly fields: readonly string[] | undefined;
  readonly binding: CursorBinding;
  /** For stream chunks: the range of the first key field this walk covers. */
  readonly window: StreamWindow | undefined;
}

/** Runs the rest of the pipeline and resolves with its result. */
export type Next = () => Promise<unknown>;

/**
 * One step of the pipeline. A stage may act before calling `next()` (validate, look up a
 * cache), after it (paginate, budget, shape), or instead of it (a cache hit, a refusal).
 */
export type Stage = (invocation: Invocation, next: Next) => Promise<unknown>;
