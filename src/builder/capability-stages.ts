import type {
  Capability,
  CapabilityOperation,
  CapabilityServices,
  CapabilityStage,
} from "../pipeline/capability.js";
import type { Stage } from "../pipeline/invocation.js";
import { type OperationDefinition, operationName } from "../pipeline/operation.js";
import { assembleOrder, PIPELINE_ORDER, type StageName } from "../pipeline/order.js";
import { failedCallResult } from "../pipeline/stages/failed-call.js";

/** A built-in stage of one operation, by its place in `PIPELINE_ORDER`. */
export interface NamedStage {
  readonly name: StageName;
  readonly stage: Stage;
}

/**
 * The operation's stages, outermost first, with each capability's stage (each of its
 * `stages`) placed right after (inside) the built-in stage it names: after that stage when
 * the operation has it, else where it would have been. A stage placed `at` a name takes that place itself, inside
 * the place's holder (a kernel stage, or the capability that declares it), so those placed
 * after the name run inside it. Capabilities placed at the same spot run in the order of
 * their names, whatever the order of their decorators. A capability stage outside `shape`
 * answers a tool's thrown error as an `isError` result, as an interceptor's refusal is.
 */
export function placeCapabilityStages(
  definition: OperationDefinition,
  builtIn: readonly NamedStage[],
  services: CapabilityServices,
  order: readonly StageName[] = PIPELINE_ORDER,
): Stage[] {
  const rankOf = (name: StageName) => order.indexOf(name);
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
  let placedSoFar = 0;
  for (const [capability, spec] of definition.capabilities) {
    for (const declared of stagesOf(capability)) {
      const created = declared.create(spec, operation, services);
      if (!created) continue;
      const { after, at, place: own } = declared;
      const holds = own ?? at;
      const place = holds ?? after;
      if (place === undefined)
        throw new Error(
          `${capability.decorator}: its stage names no place; give it \`after\` (a PIPELINE_ORDER name)`,
        );
      if (rankOf(place) < 0) throw unknownPlace(capability, declared, place);
      const outsideShape = rankOf(place) < rankOf("shape");
      const stage = outsideShape ? refusingAsToolError(definition, created, services) : created;
      placed.push({ rank: rankOf(place) + offsetAt(own, at, placedSoFar++), stage });
    }
  }
  return placed.sort((a, b) => a.rank - b.rank).map((entry) => entry.stage);
}

/**
 * The order of an operation's pipeline: the kernel's places with those the capabilities
 * declare (`place` of each of their stages), whatever order the capabilities come in.
 */
export function pipelineOrder(capabilities: Iterable<Capability>): readonly StageName[] {
  const declared = [];
  // A place has one holder: a second one would move the first's stage (which one wins would
  // depend on the order the capabilities come in), so it is refused when the app is built.
  const holders = new Map<string, string>(PIPELINE_ORDER.map((place) => [place, "the kernel"]));
  for (const capability of capabilities) {
    for (const { place, after, before, innermost } of stagesOf(capability)) {
      if (place === undefined) continue;
      const holder = holders.get(place);
      if (holder !== undefined) throw placeTaken(capability, place, holder);
      holders.set(place, capability.decorator);
      declared.push({ place, after, before, innermost });
    }
  }
  return assembleOrder(declared);
}

function placeTaken(capability: Capability, place: string, holder: string): Error {
  return new Error(
    `${capability.decorator}: its place "${place}" is already declared by ${holder}. Fix: give the place another name, or declare none and place the stage \`after\` (or \`at\`) "${place}"`,
  );
}

/**
 * Where a stage sits at its place, from the outside in: the place's own holder first (as a
 * kernel stage holds its place, whatever the names of the capabilities there), then the
 * stages `at` the place, then those just inside it (`after`); several of one kind in the
 * order of their capabilities' names (`placedSoFar`).
 */
function offsetAt(own: StageName | undefined, at: StageName | undefined, placedSoFar: number): number {
  if (own !== undefined) return 0;
  return (at !== undefined ? 0.1 : 0.5) + placedSoFar / 1e6;
}

/** Every stage a capability declares: its `stage`, then its `stages`. */
function stagesOf<Spec>(capability: Capability<unknown, Spec>): readonly CapabilityStage<Spec>[] {
  const { stage, stages = [] } = capability;
  return stage ? [stage, ...stages] : stages;
}

function unknownPlace(capability: Capability, stage: CapabilityStage<unknown>, place: StageName): Error {
  const own = stage.place;
  return new Error(
    own === undefined
      ? `${capability.decorator}: its stage is placed at "${place}", which neither the kernel nor a capability of the app declares`
      : `${capability.decorator}: its place "${own}" goes ${stage.before === undefined ? "after" : "before"} "${stage.before ?? stage.after}", which neither the kernel nor a capability of the app declares`,
  );
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
