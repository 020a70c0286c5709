import type { z } from "zod";
import { FrugalConfigError } from "../errors/config-error.js";
import type { MethodMetadata, RecordedCapability, TextFormat } from "../metadata/definitions.js";
import {
  type Capability,
  type CapabilityTarget,
  heldCapability,
  type OperationKind,
} from "../pipeline/capability.js";
import { decoratorsOn } from "./decorator-names.js";

/** The operation whose capabilities are resolved. */
export interface CapabilityOwner {
  readonly where: string;
  readonly kind: OperationKind;
  readonly name: string;
  readonly serviceClass: Function;
  readonly property: string;
  /** False for an app-only tool (default true). */
  readonly modelVisible?: boolean | undefined;
}

/** What the app adds to an operation's own decorators: its class's, and the app's capabilities. */
export interface CapabilitySources {
  /** Capabilities recorded on the service class (`Capability.classes`), its parents' included. */
  readonly classRecords?: readonly RecordedCapability[] | undefined;
  /** Capabilities the app registers: each may act where nothing records it (`Capability.absent`). */
  readonly registered?: readonly Capability[] | undefined;
  /** The app's options of some capabilities, as their decorator records them: the default of every operation. */
  readonly defaults?: ReadonlyMap<Capability, unknown> | undefined;
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
  /** A tool's whole result schema as the capabilities widen it (`Capability.result`). */
  result(schema: z.ZodType): z.ZodType;
  /** What the capabilities add to a tool's `_meta` (`Capability.meta`). */
  meta(): Record<string, unknown>;
}

const KIND_DECORATOR: Record<OperationKind, string> = {
  tool: "@Tool",
  resource: "@Resource",
  prompt: "@Prompt",
};

/**
 * The specs of the capabilities recorded on an operation, each checked by its own `resolve`
 * at start-up. A capability on an operation kind it does not take fails here, naming it.
 * Where the method records none, its class's options apply, else the app's defaults, else
 * the capability's `absent` spec (a registered capability that acts everywhere).
 */
export function resolveCapabilities(
  owner: CapabilityOwner,
  metadata: MethodMetadata,
  sources: CapabilitySources = {},
): ResolvedCapabilities {
  const carried = new Set(decoratorsOn(metadata));
  const resolved: Array<{ capability: Capability; spec: unknown; target: CapabilityTarget }> = [];
  const targetAt = (capability: Capability, where: string): CapabilityTarget => ({
    ...owner,
    modelVisible: owner.modelVisible ?? true,
    where,
    fail(problem, fix) {
      throw new FrugalConfigError(where, `${capability.decorator} ${problem}`, fix);
    },
    carries: (decorator) => carried.has(decorator),
  });
  const own = new Map((metadata.capabilities ?? []).map((r) => [heldCapability(r.capability), r.options]));
  const fromClass = new Map(
    (sources.classRecords ?? []).map((r) => [heldCapability(r.capability), r.options]),
  );
  const candidates = new Set<Capability>([
    ...own.keys(),
    ...fromClass.keys(),
    ...(sources.defaults?.keys() ?? []),
    ...(sources.registered ?? []),
  ]);
  const ordered = [...candidates].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const capability of ordered) {
    const target = targetAt(capability, owner.where);
    const applies = !capability.on || capability.on.includes(owner.kind);
    // Class-level options are checked even when the method overrides them: a typo must not wait.
    let classSpec: unknown;
    if (fromClass.has(capability)) {
      const classTarget = targetAt(capability, owner.serviceClass.name);
      if (!capability.classes)
        classTarget.fail(
          "applies to methods only",
          `move ${capability.decorator} onto the methods it is for`,
        );
      if (applies) classSpec = resolveWith(capability, fromClass.get(capability), classTarget);
    }
    let spec: unknown;
    if (own.has(capability)) {
      if (!applies) refuseKind(capability, target);
      spec = resolveWith(capability, own.get(capability), target);
    } else if (!applies) {
      continue;
    } else if (fromClass.has(capability)) {
      spec = classSpec;
    } else if (sources.defaults?.has(capability)) {
      spec = resolveWith(capability, sources.defaults.get(capability), target);
    } else {
      spec = capability.absent?.(target);
    }
    if (spec !== undefined) resolved.push({ capability, spec: freezeShallow(spec), target });
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
    result: (schema) =>
      resolved.reduce(
        (widened, { capability, spec, target }) =>
          capability.result ? capability.result(spec, widened, target) : widened,
        schema,
      ),
    meta: () =>
      Object.assign({}, ...resolved.map(({ capability, spec, target }) => capability.meta?.(spec, target))),
  };
}

function resolveWith(capability: Capability, options: unknown, target: CapabilityTarget): unknown {
  return capability.resolve ? capability.resolve(options, target) : options;
}

function refuseKind(capability: Capability, target: CapabilityTarget): never {
  const kinds = (capability.on ?? []).map((k) => `${k}s`).join(" and ");
  const decorators = (capability.on ?? []).map((k) => KIND_DECORATOR[k]).join(" or ");
  return target.fail(
    `applies to ${kinds} only`,
    `remove ${capability.decorator}, or make this method a ${decorators}`,
  );
}

function freezeShallow<T>(value: T): T {
  return typeof value === "object" && value !== null && !Object.isFrozen(value)
    ? Object.freeze(value)
    : value;
}
