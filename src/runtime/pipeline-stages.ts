import { Budget } from "../budget/budget.capability.js";
import { Cached } from "../cache/cached.capability.js";
import { Ephemeral } from "../ephemeral/ephemeral.capability.js";
import type { EventBus } from "../events/event-bus.js";
import type { Logger } from "../logging/logger.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import { Paginated } from "../pagination/paginated.capability.js";
import { type Capability, heldCapability } from "../pipeline/capability.js";
import type { Interceptor, InterceptorRef } from "../pipeline/interceptor.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { interceptorsStage } from "../pipeline/stages/interceptors.stage.js";
import type { InputLimits } from "../pipeline/stages/measure-input.js";
import { shapeStage } from "../pipeline/stages/shape.stage.js";
import { validateStage } from "../pipeline/stages/validate.stage.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";

/** Everything the app's kernel stages depend on, built once per app by `McpFactory.create`. */
export interface StageDeps {
  readonly logger: Logger;
  readonly metrics: AppMetrics;
  readonly inputLimits: InputLimits;
  readonly appInterceptors: readonly Interceptor[];
  readonly interceptorOf: (type: InterceptorRef) => Interceptor;
  readonly bus: EventBus;
  readonly counter: TokenCounter;
}

/**
 * The composition root of the pipeline's kernel stages, one per place of `PIPELINE_ORDER`,
 * each given its own dependencies. Capabilities bring their stages themselves
 * (`Capability.stage`, `Capability.stages`): adding one means adding it to
 * `BUILT_IN_CAPABILITIES`, never a line here.
 */
export function pipelineStages(deps: StageDeps): StageFactory[] {
  return [
    validateStage(deps.inputLimits),
    interceptorsStage(deps.appInterceptors, deps.interceptorOf, deps.logger),
    shapeStage(deps),
  ];
}

/**
 * The built-in capabilities every app registers: each declares its own places in the order
 * (`@Paginated` "decodeCursor" and "paginate", `@Cached` "cache", `@Ephemeral` "spill",
 * `@Budget` "budget") and may act where no decorator records it (the budget honours a
 * client's per-call limit on every call). Their stages take what they need from the app
 * (`PAGINATION_STAGES`, `CACHE_STAGE`, `SPILL_STAGE`, `BUDGET_STAGE`).
 */
export const BUILT_IN_CAPABILITIES: readonly Capability[] = Object.freeze([
  heldCapability(Budget.capability),
  heldCapability(Cached.capability),
  heldCapability(Ephemeral.capability),
  heldCapability(Paginated.capability),
]);
