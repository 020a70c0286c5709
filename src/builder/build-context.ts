import type { z } from "zod";
import { FrugalConfigError } from "../errors/config-error.js";
import type { CompleteCallback, InputSchema, ServiceMetadata } from "../metadata/definitions.js";
import type { ToolContext } from "../runtime/tool-context.js";
import { toObjectSchema } from "./input-schema.js";
import type { ScannedMember } from "./scan-service.js";

/** One decorated member of one resolved service, ready to be built into definitions. */
export interface MemberToBuild {
  readonly serviceClass: Function;
  readonly instance: object;
  readonly member: ScannedMember;
  readonly classMetadata: ServiceMetadata;
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
  if (typeof result === "string") {
    throw new FrugalConfigError(
      describeMember(item),
      `\`${option}\` is invalid: ${result}`,
      `pass a zod shape such as \`{ site: z.string() }\` or \`z.object({ … })\``,
    );
  }
  return result;
}

/** The fields every built definition shares, taken from the member being built. */
export function commonFields(
  item: MemberToBuild,
  property: string,
  where: string,
  inputSchema: z.ZodObject | undefined,
) {
  return {
    where,
    serviceClass: item.serviceClass,
    property,
    metadata: item.member.metadata,
    classMetadata: item.classMetadata,
    inputSchema,
    handler: bindHandler(item, property),
  };
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
