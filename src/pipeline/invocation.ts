import type { CallOutcome } from "./call-outcome.js";
import type { CapabilityCall } from "./capability.js";
import type { OperationDefinition } from "./operation.js";
import type { ToolContext } from "./tool-context.js";

/**
 * What the handler's context reads from its call. Stages set it; the context the handler
 * sees (`ToolContext`) only reads it (its `signal`, and what capabilities keep in their
 * slots, such as the page), so a handler cannot change it.
 */
export interface CallState {
  /**
   * When set, the signal the rest of the call runs under instead of the request's own: a
   * stage that runs one call for several waiting callers sets one aborted only when every
   * one of them cancelled.
   */
  signal: AbortSignal | undefined;
  /** State a capability keeps between its own stages and the handler's context (see `InvocationSlot`); made on first use. */
  slots: Map<InvocationSlot<unknown>, unknown> | undefined;
}

/** The state of one call as it passes through the pipeline. */
export interface Invocation extends CallState {
  readonly definition: OperationDefinition;
  /** Arguments as the client sent them (tool arguments, template variables, prompt arguments). */
  readonly args: Record<string, unknown>;
  /** The validated, typed input; set by the `validate` stage. */
  input: unknown;
  /** The handler's context for this call. */
  readonly ctx: ToolContext;
  /** For resource reads: the concrete URI requested. */
  readonly uri: string | undefined;
  /**
   * What decides the answer besides the input (the page position, the selected fields, a
   * stream's range). Stages before the cache add to it; the cache keys by it.
   */
  readonly identity: unknown[];
  readonly outcome: CallOutcome;
  /** The last result shaped for this call, so two stages never shape one value twice. */
  shaped: { readonly from: unknown; readonly result: unknown } | undefined;
}

/**
 * A typed place on the invocation that one capability shares between its stages (the
 * decoded page request, from cursor decoding to pagination). Keep the slot private to the
 * capability: other capabilities talk through `CallOutcome` and the pipeline's types.
 *
 * @example
 * ```ts
 * const REQUEST = new InvocationSlot<PageRequest>("pagination.request");
 * REQUEST.set(invocation, request);           // in one stage
 * const request = REQUEST.get(invocation);    // in a later one
 * ```
 */
export class InvocationSlot<T> {
  constructor(readonly name: string) {}

  set(state: CallState, value: T): void {
    state.slots ??= new Map();
    state.slots.set(this, value);
  }

  get(state: CallState): T {
    const slots = state.slots;
    if (!slots?.has(this)) throw new Error(`pipeline slot "${this.name}" was read before it was set`);
    return slots.get(this) as T;
  }

  /** The value, or `undefined` when the call has none (a context's optional field). */
  find(state: CallState): T | undefined {
    return state.slots?.get(this) as T | undefined;
  }
}

/**
 * A fresh invocation. The runtime makes the handler's context from the call state it is
 * given, so the context reads the page and signal that stages set.
 */
export function newInvocation(
  definition: OperationDefinition,
  args: Record<string, unknown>,
  uri: string | undefined,
  makeContext: (state: CallState) => ToolContext,
): Invocation {
  const invocation: Omit<Invocation, "ctx"> = {
    definition,
    args,
    input: undefined,
    uri,
    signal: undefined,
    identity: [],
    outcome: {
      keepable: true,
      tokens: undefined,
      pageCount: undefined,
      freshForMs: undefined,
      sharedAcrossOwners: false,
      reports: undefined,
    },
    shaped: undefined,
    slots: undefined,
  };
  // The same object gains its context, which reads the state the stages will set on it.
  return Object.assign(invocation, { ctx: makeContext(invocation) });
}

/**
 * The pipeline's invocation behind a capability's call, for a built-in capability's stage
 * that reads what the kernel keeps on it (the shaped result, its slots). Every call the
 * pipeline hands a stage is one: `newInvocation` makes them all.
 *
 * @example
 * ```ts
 * const capabilityStage: CapabilityStageFunction = (call, next) => stage(invocationOf(call), next);
 * ```
 */
export function invocationOf(call: CapabilityCall): Invocation {
  if (!isInvocation(call))
    throw new TypeError("a capability stage was called with a call the pipeline did not make");
  return call;
}

function isInvocation(call: CapabilityCall): call is Invocation {
  return "shaped" in call && "slots" in call;
}

/** Runs the rest of the pipeline and resolves with its result. */
export type Next = () => Promise<unknown>;

/**
 * One step of the pipeline. A stage may act before calling `next()` (validate, look up a
 * cache), after it (paginate, budget, shape), or instead of it (a cache hit, a refusal).
 */
export type Stage = (invocation: Invocation, next: Next) => Promise<unknown>;
