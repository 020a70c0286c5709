import type { z } from "zod";
import { FrugalConfigError } from "../errors/config-error.js";
import type {
  CompleteCallback,
  InputSchema,
  ServiceMetadata,
  TextFormat,
  VisibleTo,
} from "../metadata/definitions.js";
import type { Capability } from "../pipeline/capability.js";
import type { ToolContext } from "../pipeline/tool-context.js";
import { describe } from "./check-options.js";
import { toObjectSchema } from "./input-schema.js";
import { type ResolvedCapabilities, resolveCapabilities } from "./resolve-capabilities.js";
import { resolveSpecs } from "./resolve-specs.js";
import type { ScannedMember } from "./scan-service.js";

/** One decorated member of one resolved service, ready to be built into definitions. */
export interface MemberToBuild {
  readonly serviceClass: Function;
  readonly instance: object;
  readonly member: ScannedMember;
  readonly classMetadata: ServiceMetadata;
  /** Capabilities the app registers (they may act where no decorator records them). */
  readonly registered?: readonly Capability[] | undefined;
  /** The app's options of some capabilities, the default of every operation (see `BuildOptions.defaults`). */
  readonly defaults?: ReadonlyMap<Capability, unknown> | undefined;
  /** The app's `text` option, the default text format of every tool. */
  readonly appText: TextFormat | undefined;
}

/** `ArticlesService.listArticles`, the name used in every start-up error. */
export function describeMember(item: MemberToBuild): string {
  return `${item.serviceClass.name}.${String(item.member.property)}`;
}

/** Refuses getters, setters, fields and symbol keys, which cannot be handlers. */
export function assertPlainMethod(item: MemberToBuild, decorator: string): string {
  const where = describeMember(item);
  const { memberKind } = item.member.metadata;
  if (memberKind !== "method") {
    throw new FrugalConfigError(
      where,
      `${decorator} can only decorate a method, not a ${memberKind}`,
      `turn the ${memberKind} into a method (e.g. \`${String(item.member.property)}() { … }\`)`,
    );
  }
  if (typeof item.member.property === "symbol") {
    throw new FrugalConfigError(
      where,
      `${decorator} cannot decorate a symbol-keyed method`,
      "use a string name",
    );
  }
  return item.member.property;
}

/** Binds the user's method to its instance; looked up at build time so overrides apply. */
export function bindHandler(item: MemberToBuild, property: string) {
  const method = (item.instance as Record<string, unknown>)[property] as (
    input: unknown,
    ctx: ToolContext,
  ) => unknown;
  return (input: unknown, ctx: ToolContext) => method.call(item.instance, input, ctx);
}

/** A decorator's zod option as an object schema, or a start-up error saying what is wrong. */
export function objectSchemaOf(item: MemberToBuild, option: string, schema: InputSchema | undefined) {
  const result = toObjectSchema(schema);
  if (result !== undefined && "problem" in result) {
    throw new FrugalConfigError(
      describeMember(item),
      `\`${option}\` is invalid: ${result.problem}`,
      result.fix,
    );
  }
  return result;
}

/** What a builder knows about an operation once it has read its own decorator. */
export interface OperationBasics {
  readonly kind: "tool" | "resource" | "prompt";
  readonly name: string;
  readonly property: string;
  readonly where: string;
  readonly inputSchema: z.ZodObject | undefined;
  /** False for app-only tools. */
  readonly modelVisible?: boolean;
  /** The operation's capabilities, resolved by its builder (`capabilitiesOf`). */
  readonly capabilities: ResolvedCapabilities;
  /** The decorator's `visibleTo` option, as recorded (checked here). */
  readonly visibleTo: unknown;
}

/** Resolves the capabilities recorded on a member, for the operation it builds (a resource goes by its URI). */
export function capabilitiesOf(
  item: MemberToBuild,
  operation: {
    kind: "tool" | "resource" | "prompt";
    name: string;
    where: string;
    property: string;
    modelVisible?: boolean;
  },
): ResolvedCapabilities {
  return resolveCapabilities({ ...operation, serviceClass: item.serviceClass }, item.member.metadata, {
    classRecords: item.classMetadata.capabilities,
    registered: item.registered,
    defaults: item.defaults,
  });
}

/**
 * The fields every built definition shares: the handler bound to its instance and the
 * resolved specs of its behaviour decorators (checked here, at start-up).
 */
export function commonFields(item: MemberToBuild, basics: OperationBasics) {
  const { property, where, inputSchema } = basics;
  return {
    where,
    serviceClass: item.serviceClass,
    property,
    inputSchema,
    handler: bindHandler(item, property),
    capabilities: basics.capabilities.specs,
    visibleTo: checkVisibleTo(where, basics.kind, basics.visibleTo),
    ...resolveSpecs({
      where,
      kind: basics.kind,
      name: basics.name,
      serviceClass: item.serviceClass,
      metadata: item.member.metadata,
      classMetadata: item.classMetadata,
    }),
  };
}

const DECORATOR_OF = { tool: "@Tool", resource: "@Resource", prompt: "@Prompt" } as const;

/** `visibleTo` must be a function of the caller; anything else fails start-up. */
function checkVisibleTo(where: string, kind: OperationBasics["kind"], value: unknown): VisibleTo | undefined {
  if (value === undefined || typeof value === "function") return value as VisibleTo | undefined;
  throw new FrugalConfigError(
    where,
    `${DECORATOR_OF[kind]} \`visibleTo\` must be a function of the caller, not ${describe(value)}`,
    'e.g. visibleTo: ({ auth }) => auth?.scopes.includes("admin") ?? false',
  );
}

/** Completion callbacks, run with `this` bound to the service like the handler. */
export function bindCompletions(
  item: MemberToBuild,
  complete: Readonly<Record<string, CompleteCallback>> | undefined,
): Readonly<Record<string, CompleteCallback>> {
  const bound: Record<string, CompleteCallback> = {};
  for (const [name, callback] of Object.entries(complete ?? {})) {
    bound[name] = (value, context) => callback.call(item.instance, value, context);
  }
  return Object.freeze(bound);
}
