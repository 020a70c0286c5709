import type { CapabilityOperation, CapabilityServices } from "../pipeline/capability.js";
import type { Stage } from "../pipeline/invocation.js";
import { type OperationDefinition, operationName } from "../pipeline/operation.js";
import { PIPELINE_ORDER, type StageName } from "../pipeline/order.js";
import { failedCallResult } from "../pipeline/stages/failed-call.js";

/** A built-in stage of one operation, by its place in `PIPELINE_ORDER`. */
export interface NamedStage {
  readonly name: StageName;
  readonly stage: Stage;
}

/**
 * The operation's stages, outermost first, with each capability's stage placed right after
 * (inside) the built-in stage it names: after that stage when the operation has it, else
 * where it would have been. Capabilities placed at the same spot run in the order of their
 * names, whatever the order of their decorators. A capability stage outside `shape` answers a tool's thrown error
 * as an `isError` result, as an interceptor's refusal is.
 */
export function placeCapabilityStages(
  definition: OperationDefinition,
  builtIn: readonly NamedStage[],
  services: CapabilityServices,
): Stage[] {
  const placed = builtIn.map((entry) => ({ rank: rankOf(entry.name), stage: entry.stage }));
  const { where, kind, serviceClass, property } = definition;
  const operation: CapabilityOperation = {
    where,
    kind,
    name: operationName(definition),
    serviceClass,
    property,
  };
  // `definition.capabilities` is in the order of their names (resolveCapabilities): capabilities
  // at one place run in that order, so stacking order never matters.
  let order = 0;
  for (const [capability, spec] of definition.capabilities) {
    if (!capability.stage) continue;
    const created = capability.stage.create(spec, operation, services);
    if (!created) continue;
    const outsideShape = rankOf(capability.stage.after) < rankOf("shape");
    const stage = outsideShape ? refusingAsToolError(definition, created, services) : created;
    // Just inside its anchor, after capabilities placed there before it.
    placed.push({ rank: rankOf(capability.stage.after) + 0.5 + order++ / 1e6, stage });
  }
  return placed.sort((a, b) => a.rank - b.rank).map((entry) => entry.stage);
}

function rankOf(name: StageName): number {
  return PIPELINE_ORDER.indexOf(name);
}

function refusingAsToolError(
  definition: OperationDefinition,
  stage: Stage,
  services: CapabilityServices,
): Stage {
  if (definition.kind !== "tool") return stage;
  return async (invocation, next) => {
    try {
      return await stage(invocation, next);
    } catch (error) {
      return failedCallResult(definition, error, services.logger, "interceptor");
    }
  };
}
