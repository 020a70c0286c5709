import type { OperationDefinition } from "./operation.js";
import type { AggregateRequest, PageContext, ToolContext } from "./tool-context.js";

/**
 * What the handler's context reads from its call. Stages set it; the context the handler
 * sees (`ToolContext`) exposes only `page` and `signal`, so a handler cannot change it.
 */
export interface CallState {
  /** Under `@Paginated`: the page the handler is asked for (`ctx.page`). */
  page: PageContext | undefined;
  /** Under `@Paginated`: the validated `aggregate` input (`ctx.aggregate`), or undefined. */
  aggregate: AggregateRequest | undefined;
  /** True once the handler read `ctx.page`: it pushed the page into its query, so its order is trusted. */
  pageRead: boolean;
  /**
   * When set, the signal the rest of the call runs under instead of the request's own: a
   * coalesced cache miss runs with a signal aborted only when every waiting caller cancelled.
   */
  signal: AbortSignal | undefined;
}

/**
 * What stages learn about a call, for the stages around them and for the app's counters.
 * The pipeline owns these names, so no capability needs to know another.
 */
export interface CallOutcome {
  /** False when the result must not be cached (it was spilled into a resource that expires). */
  cacheable: boolean;
  /** True when the result was served from the cache. */
  cacheHit: boolean;
  /** True when the cache had no answer and the call ran the handler (not one that joined a running miss). */
  cacheMiss: boolean;
  /** True when the result was stored as an ephemeral resource and a link returned. */
  spilled: boolean;
  /** Tokens the model reads, when a budget counted them. */
  tokens: number | undefined;
  /** Items of the page returned, under `@Paginated` (set when the page is shaped, after the budget). */
  pageCount: number | undefined;
  /**
   * How much longer (ms) this very result stays fresh, when a stage keeps it (the cache, on
   * a hit or a store): the 2026-07-28 registrar turns it into the result's `ttlMs`.
   */
  freshForMs: number | undefined;
  /** True when that kept result is the same for every caller (not scoped to an owner): `cacheScope` "public". */
  sharedAcrossOwners: boolean;
  /**
   * True when the call goes on with a walk without a cursor: a stream polled from where the
   * caller's last answer ended (`since = nextSince`). Counted with the calls that pass one.
   */
  continuation: boolean;
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
  /** State a capability keeps between its own stages (see `InvocationSlot`); made on first use. */
  slots: Map<InvocationSlot<unknown>, unknown> | undefined;
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

  set(invocation: Invocation, value: T): void {
    invocation.slots ??= new Map();
    invocation.slots.set(this, value);
  }

  get(invocation: Invocation): T {
    const slots = invocation.slots;
    if (!slots?.has(this)) throw new Error(`pipeline slot "${this.name}" was read before it was set`);
    return slots.get(this) as T;
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
  const invocation = {
    definition,
    args,
    input: undefined,
    uri,
    page: undefined,
    aggregate: undefined,
    pageRead: false,
    signal: undefined,
    identity: [],
    outcome: {
      cacheable: true,
      cacheHit: false,
      cacheMiss: false,
      spilled: false,
      tokens: undefined,
      pageCount: undefined,
      freshForMs: undefined,
      sharedAcrossOwners: false,
      continuation: false,
    },
    shaped: undefined,
    slots: undefined,
  } as Omit<Invocation, "ctx"> & { ctx?: ToolContext };
  invocation.ctx = makeContext(invocation);
  return invocation as Invocation;
}

/** Runs the rest of the pipeline and resolves with its result. */
export type Next = () => Promise<unknown>;

/**
 * One step of the pipeline. A stage may act before calling `next()` (validate, look up a
 * cache), after it (paginate, budget, shape), or instead of it (a cache hit, a refusal).
 */
export type Stage = (invocation: Invocation, next: Next) => Promise<unknown>;
