import { FrugalConfigError } from "../errors/config-error.js";
import type { MethodMetadata } from "../metadata/definitions.js";
import type { Capability, CapabilityTarget, OperationKind } from "../pipeline/capability.js";

/** The operation whose capabilities are resolved. */
export interface CapabilityOwner {
  readonly where: string;
  readonly kind: OperationKind;
  readonly name: string;
  readonly serviceClass: Function;
  readonly property: string;
}

/**
 * The specs of the capabilities recorded on an operation, each checked by its own `resolve`
 * at start-up. A capability on an operation kind it does not take fails here, naming it.
 */
export function resolveCapabilities(
  owner: CapabilityOwner,
  metadata: MethodMetadata,
): ReadonlyMap<Capability, unknown> {
  const specs = new Map<Capability, unknown>();
  for (const recorded of metadata.capabilities ?? []) {
    const capability = recorded.capability as Capability;
    const target: CapabilityTarget = {
      ...owner,
      fail(problem, fix) {
        throw new FrugalConfigError(owner.where, `${capability.decorator} ${problem}`, fix);
      },
    };
    if (capability.on && !capability.on.includes(owner.kind)) {
      target.fail(
        `cannot decorate a ${owner.kind} (only ${capability.on.join(", ")})`,
        `remove ${capability.decorator} from this ${owner.kind}`,
      );
    }
    const spec = capability.resolve ? capability.resolve(recorded.options, target) : recorded.options;
    specs.set(capability, Object.isFrozen(spec) ? spec : freezeShallow(spec));
  }
  return specs;
}

function freezeShallow<T>(value: T): T {
  return typeof value === "object" && value !== null ? Object.freeze(value) : value;
}
