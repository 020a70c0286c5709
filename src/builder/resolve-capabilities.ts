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
  const declared: DeclaredOptions = {
    own: optionsByCapability(metadata.capabilities),
    fromClass: optionsByCapability(sources.classRecords),
    defaults: sources.defaults,
  };
  const resolved: ResolvedSpec[] = [];
  for (const capability of candidatesByName(declared, sources.registered)) {
    const target = targetAt(owner, carried, capability, owner.where);
    const spec = specOn(capability, owner, declared, target, carried);
    if (spec !== undefined) resolved.push({ capability, spec: freezeShallow(spec), target });
  }
  return answersOf(resolved);
}

/** A capability's spec on one operation, with the target it was resolved for. */
interface ResolvedSpec {
  readonly capability: Capability;
  readonly spec: unknown;
  readonly target: CapabilityTarget;
}

/** The options each capability was given for one operation, by where they were given. */
interface DeclaredOptions {
  readonly own: ReadonlyMap<Capability, unknown>;
  readonly fromClass: ReadonlyMap<Capability, unknown>;
  readonly defaults: ReadonlyMap<Capability, unknown> | undefined;
}

function optionsByCapability(records: readonly RecordedCapability[] | undefined): Map<Capability, unknown> {
  return new Map((records ?? []).map((r) => [heldCapability(r.capability), r.options]));
}

/** Every capability that may act on the operation, by name: the order their additions compose in. */
function candidatesByName(
  declared: DeclaredOptions,
  registered: readonly Capability[] | undefined,
): Capability[] {
  const candidates = new Set<Capability>([
    ...declared.own.keys(),
    ...declared.fromClass.keys(),
    ...(declared.defaults?.keys() ?? []),
    ...(registered ?? []),
  ]);
  return [...candidates].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The target a capability checks its options against, whose `fail` names `where` and the decorator. */
function targetAt(
  owner: CapabilityOwner,
  carried: ReadonlySet<string>,
  capability: Capability,
  where: string,
): CapabilityTarget {
  return {
    ...owner,
    modelVisible: owner.modelVisible ?? true,
    where,
    fail(problem, fix) {
      throw new FrugalConfigError(where, `${capability.decorator} ${problem}`, fix);
    },
    carries: (decorator) => carried.has(decorator),
  };
}

/**
 * The spec of `capability` on the operation (`undefined`: it does not act there): the
 * method's own options, else its class's, else the app's default, else `absent`.
 */
function specOn(
  capability: Capability,
  owner: CapabilityOwner,
  declared: DeclaredOptions,
  target: CapabilityTarget,
  carried: ReadonlySet<string>,
): unknown {
  const applies = !capability.on || capability.on.includes(owner.kind);
  // Class-level options are checked even when the method overrides them: a typo must not wait.
  const classSpec = declared.fromClass.has(capability)
    ? classSpecOf(capability, declared.fromClass.get(capability), applies, owner, carried)
    : undefined;
  if (declared.own.has(capability)) {
    if (!applies) refuseKind(capability, target);
    return resolveWith(capability, declared.own.get(capability), target);
  }
  if (!applies) return undefined;
  if (declared.fromClass.has(capability)) return classSpec;
  if (declared.defaults?.has(capability))
    return resolveWith(capability, declared.defaults.get(capability), target);
  return capability.absent?.(target);
}

/** The spec of a capability's class-level options, checked against the class (`undefined` where it does not apply). */
function classSpecOf(
  capability: Capability,
  options: unknown,
  applies: boolean,
  owner: CapabilityOwner,
  carried: ReadonlySet<string>,
): unknown {
  const classTarget = targetAt(owner, carried, capability, owner.serviceClass.name);
  if (!capability.classes)
    classTarget.fail("applies to methods only", `move ${capability.decorator} onto the methods it is for`);
  return applies ? resolveWith(capability, options, classTarget) : undefined;
}

/** What the resolved capabilities answer about the operation, each composed in the order of their names. */
function answersOf(resolved: readonly ResolvedSpec[]): ResolvedCapabilities {
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
