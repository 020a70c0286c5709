// Over 300 lines: the capability API, one interface whose members are each documented with an example;
// the code itself is a few short functions at the end.
import type { z } from "zod";
import type { Logger } from "../logging/logger.js";
import type { OperationCaller, TextFormat } from "../metadata/definitions.js";
import type { CallOutcome } from "./call-outcome.js";
import type { StageName } from "./order.js";
import type { ToolContext } from "./tool-context.js";

/** The kind of operation a capability decorates. */
export type OperationKind = "tool" | "resource" | "prompt";

/** The operation a capability decorates. */
export interface CapabilityOperation {
  /** `ArticlesService.listArticles`: name it in every error. */
  readonly where: string;
  readonly kind: OperationKind;
  /** The tool's or prompt's name, or the resource's URI (template). */
  readonly name: string;
  readonly serviceClass: Function;
  readonly property: string;
}

/** The operation a capability's options are resolved for, at start-up. */
export interface CapabilityTarget extends CapabilityOperation {
  /** Fails start-up with a message naming the operation, the decorator, the problem and the fix. */
  fail(problem: string, fix: string): never;
  /** Whether the method also carries `decorator` (`"@Paginated"`), to refuse a combination that cannot work. */
  carries(decorator: string): boolean;
  /** False for an app-only tool (`visibility: ["app"]`), whose results no model reads (absent: true). */
  readonly modelVisible?: boolean | undefined;
}

/** What a capability's stage sees of one call. */
export interface CapabilityCall {
  readonly definition: CapabilityOperation;
  /** The validated input (defaults applied). */
  readonly input: unknown;
  /** The arguments as the client sent them. */
  readonly args: Readonly<Record<string, unknown>>;
  /** The call's context: `owner`, `auth`, `sessionId`, `callId`, `signal`, `log`, … */
  readonly ctx: ToolContext;
  /** The URI read, for a resource. */
  readonly uri: string | undefined;
  /**
   * What decides the answer besides the input (the page position, the selected fields, a
   * stream's range), added by the stages before this one: a stage that keeps results keys by it.
   */
  readonly identity: readonly unknown[];
  /** What the stages learn about the call: neutral fields, and each capability's own reports (`OutcomeKey`). */
  readonly outcome: CallOutcome;
  /**
   * When set, the signal the rest of the call (later stages, the handler's `ctx.signal`)
   * runs under instead of the request's own: a stage that runs one call for several waiting
   * callers sets one aborted only when all of them cancelled.
   */
  signal: AbortSignal | undefined;
}

/**
 * A capability's stage for one operation: it runs around the rest of the call (`next()`),
 * and may refuse it (throw: a tool answers `isError` with the message, a resource or prompt
 * a JSON-RPC error), change what it answers, or let it through.
 */
export type CapabilityStageFunction = (
  call: CapabilityCall,
  next: () => Promise<unknown>,
) => Promise<unknown>;

/** What a capability's stage may use when it is built: the app's container and logger. */
export interface CapabilityServices {
  /** Resolves a provider of the app's container (a class, or a DI token). */
  resolve<T>(token: unknown): T;
  readonly logger: Logger;
}

/**
 * Where a capability's stage runs, and how it is made for one operation (`Capability.stage`,
 * or each of `Capability.stages`).
 */
export interface CapabilityStage<Spec> {
  /**
   * The place of the order it runs right after (inside it): a kernel stage's (`PIPELINE_ORDER`)
   * or one a capability declares (`"cache"`, `"budget"`, `"decodeCursor"`). After `"interceptors"`, a
   * stage guards kept results and `next()` resolves to the shaped protocol result; after
   * `"shape"`, it sees the handler's value on its way to shaping.
   */
  readonly after?: StageName | undefined;
  /**
   * Instead of `after`: a place of the order it takes itself (one a kernel stage or another
   * capability's `place` names), so stages placed `after` it run inside it. It runs inside
   * the place's own holder (the kernel's stage, or the capability that declares the place),
   * whatever the names.
   */
  readonly at?: StageName | undefined;
  /**
   * A place of its own in the order, which this stage holds: set right `after` (or right
   * `before`) the place it names, so the order is assembled from the capabilities an app
   * registers (`pipelineOrder`). Other stages are placed `after` it by this name. Places
   * declared at one spot go in the order of their names. A place has one holder: declaring
   * a kernel place, or one another capability declares, is refused when the app is built.
   *
   * @example
   * ```ts
   * stage: { place: "audit", after: "interceptors", create: … } // others: { after: "audit" }
   * ```
   */
  readonly place?: string | undefined;
  /** With `place`: the place it goes right before, instead of `after` one. */
  readonly before?: StageName | undefined;
  /**
   * With `place`: inside every other place declared at the same spot (right after, or right
   * before, the same place), whatever their names. `@Paginated` sets its "decodeCursor" so
   * (after "interceptors"): stages others place right after "interceptors" still see the
   * cursor before it is decoded.
   */
  readonly innermost?: boolean | undefined;
  /** Makes the stage of one operation at start-up, or `undefined` when it does nothing there. */
  create(
    spec: Spec,
    operation: CapabilityOperation,
    services: CapabilityServices,
  ): CapabilityStageFunction | undefined;
}

/**
 * A capability: a behaviour that a decorator switches on for an operation, with its own
 * option checks and its own pipeline stage (or stages). Built-in or the user's, it plugs in
 * through this one interface; the kernel knows it only as such. Its decorator records the
 * options (see `defineCapability`); the builder resolves them into a spec per operation at
 * start-up (`resolve`, failing with a message that names the method), and the pipeline
 * composer places each of its stages at the place it names.
 *
 * @example
 * ```ts
 * const audit: Capability<{ label: string }> = {
 *   name: "audit",
 *   decorator: "@Audit",
 *   stage: {
 *     after: "interceptors",
 *     create: (spec, operation, { logger }) => async (call, next) => {
 *       logger.info(`${spec.label}: ${operation.where} by ${call.ctx.owner}`);
 *       return next();
 *     },
 *   },
 * };
 * ```
 */
export interface Capability<Options = unknown, Spec = Options> {
  /** Unique among the capabilities of an app: it keys its metadata and its spec. */
  readonly name: string;
  /** The decorator as users write it, named in errors (`"@RateLimit"`). */
  readonly decorator: string;
  /** The operations it may decorate (default: tools, resources and prompts). */
  readonly on?: readonly OperationKind[] | undefined;
  /**
   * Checks the recorded options and fills defaults; the options themselves when absent.
   * `undefined`: the capability does nothing on this operation (no spec, no stage).
   */
  resolve?(options: Options, target: CapabilityTarget): Spec | undefined;
  /**
   * True when its decorator also decorates a service class: the options recorded on the class
   * (checked for every operation, naming the class) apply to each of its operations whose
   * method records none.
   */
  readonly classes?: boolean | undefined;
  /**
   * The spec of an operation that records no options of this capability (on its method, its
   * class or in the app's defaults), for a capability the app registers
   * (`BuildOptions.capabilities`); without it, or when it answers `undefined`, the capability
   * is off there.
   *
   * @example
   * ```ts
   * absent: (target) => (target.modelVisible ? { tokens: undefined } : undefined),
   * ```
   */
  absent?(target: CapabilityTarget): Spec | undefined;
  /**
   * A tool's input with what this capability adds (a `fields` selection, a `cursor`): the
   * arguments the client may send, advertised in `tools/list` and validated before any stage.
   * A resource takes what it adds as query variables of its URI (`target.kind` says which).
   */
  input?(spec: Spec, input: z.ZodObject | undefined, target: CapabilityTarget): z.ZodObject;
  /** A tool's declared output schema as this capability changes it (every field optional under a selection). */
  output?(spec: Spec, output: z.ZodObject, target: CapabilityTarget): z.ZodObject;
  /**
   * A tool's whole result schema as this capability widens it (another shape it may answer),
   * applied after every capability's `output` and the operation's own envelope.
   *
   * @example
   * ```ts
   * result: (spec, schema) => z.union([schema, z.object({ queued: z.string() })]),
   * ```
   */
  result?(spec: Spec, schema: z.ZodType, target: CapabilityTarget): z.ZodType;
  /**
   * Entries this capability adds to a tool's `_meta` in `tools/list` (a hint to hosts); a key
   * the tool's own `meta` option sets wins.
   *
   * @example
   * ```ts
   * meta: (spec) => ({ "example/rateLimit": spec.limit }),
   * ```
   */
  meta?(spec: Spec, target: CapabilityTarget): Readonly<Record<string, unknown>> | undefined;
  /**
   * The most tokens a model reads of one result, when this capability declares such a limit:
   * the kernel's `callTokenLimit` (lowered per call by `_meta["frugal/maxTokens"]`) reads it,
   * so other stages hold what they answer to it without knowing who declared it.
   */
  tokenLimit?(spec: Spec): number | undefined;
  /**
   * True when its stage takes an `Oversized` value (a result over the call's token limit) from
   * the stages inside it and still serves it (stores it, answers a link): those stages then
   * pass such a result on (see `servesOversized`) instead of refusing it.
   */
  readonly servesOversized?: boolean | undefined;
  /** Its stage: where it runs in the order and how it is made for one operation. */
  readonly stage?: CapabilityStage<Spec> | undefined;
  /**
   * Its stages when it has several (besides `stage`, if set), each placed on its own: a
   * capability that acts on the way in and on the way out at two places of the order.
   * Stages of one capability at one place run in the order listed.
   *
   * @example
   * ```ts
   * stages: [
   *   { place: "decodeCursor", after: "interceptors", innermost: true, create: … }, // reads the cursor
   *   { place: "paginate", after: "shape", innermost: true, create: … },            // pages the handler's rows
   * ],
   * ```
   */
  readonly stages?: readonly CapabilityStage<Spec>[] | undefined;
  /**
   * True when its stage may answer several calls with one object (a kept result): the
   * interceptors then get a copy, so one that changes its result in place cannot change
   * what later calls or other callers are served.
   */
  readonly sharesResults?: boolean | undefined;
  /**
   * A tool's result schema when this capability's answer wraps the declared object (after every
   * `output`): `@Paginated`'s page envelope around its items, or the size-only and aggregate
   * answers beside it. Only for a tool that declares an `output`.
   *
   * @example
   * ```ts
   * envelope: (spec, item) => z.object({ items: z.array(item), nextCursor: z.string().nullable() }),
   * ```
   */
  envelope?(spec: Spec, output: z.ZodObject, target: CapabilityTarget): z.ZodType;
  /**
   * A tool's text format as this capability decides it, given `@Tool`'s `text` (`undefined`
   * when it says none): the same, its own, or `undefined` to leave it to the app's default.
   * A capability whose options contradict `@Tool`'s throws, naming both.
   */
  textFormat?(spec: Spec, own: TextFormat | undefined, target: CapabilityTarget): TextFormat | undefined;
  /**
   * Whether the operation exists for a caller, asked before any stage runs, as the
   * decorators' `visibleTo` is: when it answers false (or throws), the operation is left out
   * of that caller's lists and its call, read or get is refused as an unknown name.
   *
   * @example
   * ```ts
   * visible: (spec, caller) => caller.auth?.scopes.includes(spec.scope) ?? false,
   * ```
   */
  visible?(spec: Spec, caller: OperationCaller): boolean | Promise<boolean>;
}

/**
 * A capability as the kernel holds it (`Capability`, its option and spec types forgotten),
 * for the maps and lists keyed by capability. No cast: `Capability<any, any>` takes any
 * capability, and is taken where `Capability` is asked for.
 *
 * @example
 * ```ts
 * const capabilities: readonly Capability[] = [heldCapability(RateLimit.capability)];
 * ```
 */
export function heldCapability<Options, Spec>(capability: Capability<Options, Spec>): Capability {
  // `any` here, and only here: a capability's methods take its own option and spec types,
  // which a map of all capabilities cannot name.
  const held: Capability<any, any> = capability;
  return held;
}

/**
 * The resolved spec of `capability` on a built operation, or `undefined` when the operation
 * does not carry it.
 *
 * @example
 * ```ts
 * const limit = specOf(definition, RateLimit.capability); // { limit: 5, windowMs: 60_000 } | undefined
 * ```
 */
export function specOf<Spec>(
  definition: { readonly capabilities: ReadonlyMap<Capability, unknown> },
  capability: Capability<never, Spec>,
): Spec | undefined {
  return definition.capabilities.get(heldCapability(capability)) as Spec | undefined;
}

/**
 * True when a capability of the operation serves a result over its token limit (see
 * `Capability.servesOversized`): a stage holding results to the limit passes one on as
 * `Oversized` rather than refusing it.
 */
export function servesOversized(definition: {
  readonly capabilities: ReadonlyMap<Capability, unknown>;
}): boolean {
  for (const capability of definition.capabilities.keys()) if (capability.servesOversized) return true;
  return false;
}

const declaredLimits = new WeakMap<object, number | undefined>();

/**
 * The most tokens a model reads of one result of the operation, as its capabilities declare
 * it (`Capability.tokenLimit`, the lowest wins); `undefined` when none does.
 */
export function declaredTokenLimit(definition: {
  readonly capabilities: ReadonlyMap<Capability, unknown>;
}): number | undefined {
  const known = declaredLimits.get(definition);
  if (known !== undefined || declaredLimits.has(definition)) return known;
  let limit: number | undefined;
  for (const [capability, spec] of definition.capabilities) {
    const declared = capability.tokenLimit?.(spec);
    if (declared !== undefined) limit = limit === undefined ? declared : Math.min(limit, declared);
  }
  declaredLimits.set(definition, limit);
  return limit;
}
