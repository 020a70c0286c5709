import type { z } from "zod";
import { FrugalConfigError } from "../errors/config-error.js";
import type { MethodMetadata, TextFormat } from "../metadata/definitions.js";
import type { Capability, CapabilityTarget, OperationKind } from "../pipeline/capability.js";
import { decoratorsOn } from "./decorator-names.js";

/** The operation whose capabilities are resolved. */
export interface CapabilityOwner {
  readonly where: string;
  readonly kind: OperationKind;
  readonly name: string;
  readonly serviceClass: Function;
  readonly property: string;
}

/** The capabilities of one operation, resolved: each spec with the target it was resolved for. */
export interface ResolvedCapabilities {
  readonly specs: ReadonlyMap<Capability, unknown>;
  /** A tool's declared output as the capabilities wrap it (`Capability.envelope`): a page around its items. */
  envelope(output: z.ZodObject): z.ZodType;
  /** A tool's text format as the capabilities decide it, from `@Tool`'s own (`undefined`: none decided). */
  textFormat(own: TextFormat | undefined): TextFormat | undefined;
  /** A tool's input with every capability's addition, in the order of their names. */
  input(own: z.ZodObject | undefined): z.ZodObject | undefined;
  /** A tool's declared output as the capabilities change it. */
  output(own: z.ZodObject): z.ZodObject;
}

const KIND_DECORATOR: Record<OperationKind, string> = {
  tool: "@Tool",
  resource: "@Resource",
  prompt: "@Prompt",
};

/**
 * The specs of the capabilities recorded on an operation, each checked by its own `resolve`
 * at start-up. A capability on an operation kind it does not take fails here, naming it.
 */
export function resolveCapabilities(owner: CapabilityOwner, metadata: MethodMetadata): ResolvedCapabilities {
  const carried = new Set(decoratorsOn(metadata));
  const resolved: Array<{ capability: Capability; spec: unknown; target: CapabilityTarget }> = [];
  const ordered = [...(metadata.capabilities ?? [])].sort((a, b) =>
    a.capability.name < b.capability.name ? -1 : a.capability.name > b.capability.name ? 1 : 0,
  );
  for (const recorded of ordered) {
    const capability = recorded.capability as Capability;
    const target: CapabilityTarget = {
      ...owner,
      fail(problem, fix) {
        throw new FrugalConfigError(owner.where, `${capability.decorator} ${problem}`, fix);
      },
      carries: (decorator) => carried.has(decorator),
    };
    if (capability.on && !capability.on.includes(owner.kind)) {
      const kinds = capability.on.map((kind) => `${kind}s`).join(" and ");
      const decorators = capability.on.map((kind) => KIND_DECORATOR[kind]).join(" or ");
      target.fail(
        `applies to ${kinds} only`,
        `remove ${capability.decorator}, or make this method a ${decorators}`,
      );
    }
    const spec = capability.resolve ? capability.resolve(recorded.options, target) : recorded.options;
    resolved.push({ capability, spec: freezeShallow(spec), target });
  }
  return {
    specs: new Map(resolved.map(({ capability, spec }) => [capability, spec])),
    // One answer wraps the declared object: the first capability (by name) with an envelope.
    envelope: (output) => {
      const wrapping = resolved.find(({ capability }) => capability.envelope);
      return wrapping?.capability.envelope?.(wrapping.spec, output, wrapping.target) ?? output;
    },
    textFormat: (own) =>
      resolved.reduce(
        (text, { capability, spec, target }) =>
          capability.textFormat ? capability.textFormat(spec, text, target) : text,
        own,
      ),
    input: (own) =>
      resolved.reduce<z.ZodObject | undefined>(
        (input, { capability, spec, target }) =>
          capability.input ? capability.input(spec, input, target) : input,
        own,
      ),
    output: (own) =>
      resolved.reduce(
        (output, { capability, spec, target }) =>
          capability.output ? capability.output(spec, output, target) : output,
        own,
      ),
  };
}

function freezeShallow<T>(value: T): T {
  return typeof value === "object" && value !== null && !Object.isFrozen(value)
    ? Object.freeze(value)
    : value;
}
