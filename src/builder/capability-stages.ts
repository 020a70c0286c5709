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
 * where it would have been. A stage placed `at` a name takes that place itself, so those
 * placed after the name run inside it. Capabilities placed at the same spot run in the order
 * of their names, whatever the order of their decorators. A capability stage outside `shape`
 * answers a tool's thrown error as an `isError` result, as an interceptor's refusal is.
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
    const { after, at } = capability.stage;
    const place = at ?? after;
    if (place === undefined)
      throw new Error(
        `${capability.decorator}: its stage names no place; give it \`after\` (a PIPELINE_ORDER name)`,
      );
    const outsideShape = rankOf(place) < rankOf("shape");
    const stage = outsideShape ? refusingAsToolError(definition, created, services) : created;
    // At its own place, or just inside its anchor, after capabilities placed there before it.
    const rank = at === undefined ? rankOf(place) + 0.5 : rankOf(place);
    placed.push({ rank: rank + order++ / 1e6, stage });
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
