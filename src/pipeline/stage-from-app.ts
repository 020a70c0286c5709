import type { InjectionToken } from "tsyringe";
import type { CapabilityOperation, CapabilityStage, CapabilityStageFunction } from "./capability.js";

/**
 * A capability stage's `create` that takes what it needs from the app
 * (`services.resolve(token)`) and makes no stage when the app gives nothing: the built-in
 * capabilities' stages need the app's parts (its cache, its cursor codec, its counter), which
 * a registry built without the app (the builder's unit tests) lacks, so there its operations
 * run as if the capability were not there.
 *
 * @example
 * ```ts
 * stage: { place: "budget", after: "shape", create: stageFromApp(BUDGET_STAGE, budgetStageFor) },
 * ```
 */
export function stageFromApp<Spec, Deps>(
  token: InjectionToken<Deps>,
  make: (spec: Spec, operation: CapabilityOperation, deps: Deps) => CapabilityStageFunction | undefined,
): CapabilityStage<Spec>["create"] {
  return (spec, operation, services) => {
    const deps = services.resolve<Deps | undefined>(token);
    return deps === undefined ? undefined : make(spec, operation, deps);
  };
}
