import { Budget } from "../budget/budget.capability.js";
import { Cached } from "../cache/cached.capability.js";
import type { Clock } from "../clock/clock.js";
import { Ephemeral } from "../ephemeral/ephemeral.capability.js";
import type { EventBus } from "../events/event-bus.js";
import type { Logger } from "../logging/logger.js";
import type { AggregateBounds } from "../metadata/definitions.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import type { CursorCodec } from "../pagination/cursor-codec.js";
import { decodeCursorStage } from "../pagination/decode-cursor.stage.js";
import { paginateStage } from "../pagination/paginate.stage.js";
import { TailPolls } from "../pagination/tail-polls.js";
import { type Capability, heldCapability } from "../pipeline/capability.js";
import type { Interceptor, InterceptorRef } from "../pipeline/interceptor.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { interceptorsStage } from "../pipeline/stages/interceptors.stage.js";
import type { InputLimits } from "../pipeline/stages/measure-input.js";
import { shapeStage } from "../pipeline/stages/shape.stage.js";
import { validateStage } from "../pipeline/stages/validate.stage.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";

/** Everything the app's stages depend on, built once per app by `McpFactory.create`. */
export interface StageDeps {
  readonly logger: Logger;
  readonly clock: Clock;
  readonly metrics: AppMetrics;
  readonly inputLimits: InputLimits;
  readonly appInterceptors: readonly Interceptor[];
  readonly interceptorOf: (type: InterceptorRef) => Interceptor;
  readonly bus: EventBus;
  readonly cursors: CursorCodec;
  readonly counter: TokenCounter;
  /** The app's aggregate bounds (`aggregate` option), for the `aggregate` input of paged tools. */
  readonly aggregate: AggregateBounds | undefined;
}

/**
 * The composition root of the pipeline: every stage of an app, each capability's factory
 * given its own dependencies. The kernel sorts them into `PIPELINE_ORDER`; adding a
 * capability means one line here and a name in that order.
 */
export function pipelineStages(deps: StageDeps): StageFactory[] {
  // Shared by pagination's two stages: where each tail's answers ended, for the next poll.
  const tails = new TailPolls();
  return [
    validateStage(deps.inputLimits),
    interceptorsStage(deps.appInterceptors, deps.interceptorOf, deps.logger),
    decodeCursorStage(deps.cursors, deps.clock, tails),
    shapeStage(deps),
    paginateStage(deps.cursors, deps.clock, tails, deps.aggregate, deps.counter),
  ];
}

/**
 * The built-in capabilities every app registers: each declares its own place in the order
 * (`@Cached` "cache", `@Ephemeral` "spill", `@Budget` "budget") and may act where no
 * decorator records it (the budget honours a client's per-call limit on every call). Their
 * stages take what they need from the app (`CACHE_STAGE`, `SPILL_STAGE`, `BUDGET_STAGE`).
 */
export const BUILT_IN_CAPABILITIES: readonly Capability[] = Object.freeze([
  heldCapability(Budget.capability),
  heldCapability(Cached.capability),
  heldCapability(Ephemeral.capability),
]);
