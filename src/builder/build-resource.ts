import { z } from "zod";
import { fieldOf } from "../common/guards.js";
import { FrugalConfigError } from "../errors/config-error.js";
import type { ResourceOptions } from "../metadata/definitions.js";
import type { ResourceDefinition } from "../pipeline/operation.js";
import { UriTemplate } from "../uri/uri-template.js";
import {
  assertPlainMethod,
  bindCompletions,
  capabilitiesOf,
  commonFields,
  describeMember,
  type MemberToBuild,
  objectSchemaOf,
} from "./build-context.js";
import { OptionChecker } from "./check-options.js";
import { toSnakeCase } from "./names.js";
import type { ResolvedCapabilities } from "./resolve-capabilities.js";

/** Builds and checks one `@Resource` (a static URI or a URI template). */
export function buildResource(item: MemberToBuild): ResourceDefinition {
  const { uri, options } = item.member.metadata.resource as NonNullable<typeof item.member.metadata.resource>;
  const property = assertPlainMethod(item, "@Resource");
  const where = describeMember(item);
  const capabilities = capabilitiesOf(item, { kind: "resource", name: uri, where, property });
  new OptionChecker(where, "@Resource").knownKeys(options, RESOURCE_OPTIONS);
  checkAbsoluteUri(where, uri);
  // The inputs its capabilities add (a page's `cursor` and `limit`) are query variables of its URI:
  // a static URI with some becomes a template of its own.
  const added = Object.keys(capabilities.input(undefined)?.shape ?? {});
  const { template, inputSchema } = templateAndInput(item, where, uri, options, capabilities, added);
  checkTemplateOptions(where, uri, template, options);
  const name = options.name ?? toSnakeCase(property);
  const described = {
    name,
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.mimeType === undefined ? {} : { mimeType: options.mimeType }),
    ...(options.meta === undefined ? {} : { _meta: { ...options.meta } }),
  };
  const instance = item.instance;
  // A static URI its capabilities made a template is still a concrete resource: list it (reading it gives the first page).
  const list =
    options.list ??
    (added.length > 0 && !UriTemplate.isTemplate(uri) ? () => [{ uri, ...described }] : undefined);
  const complete = bindCompletions(item, options.complete);
  return Object.freeze({
    kind: "resource",
    ...commonFields(item, {
      kind: "resource",
      name,
      property,
      where,
      inputSchema,
      capabilities,
      visibleTo: options.visibleTo,
    }),
    name,
    uri,
    mimeType: options.mimeType,
    template,
    addedInputs: Object.freeze(added),
    listing: template ? { uriTemplate: template.template, ...described } : { uri, ...described },
    list: list ? async () => list.call(instance) : undefined,
    complete,
  });
}

function checkAbsoluteUri(where: string, uri: string): void {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri)) {
    throw new FrugalConfigError(
      where,
      `"${uri}" is not an absolute URI`,
      'start it with a scheme, e.g. "config://app"',
    );
  }
}

/**
 * The resource's template (none for a static URI with no added inputs), which advertises
 * the inputs its capabilities add, and its input schema: its own `input`, checked against
 * the template, else strings for the template's variables; with the added inputs.
 */
function templateAndInput(
  item: MemberToBuild,
  where: string,
  uri: string,
  options: ResourceOptions,
  capabilities: ResolvedCapabilities,
  added: readonly string[],
): { template: UriTemplate | undefined; inputSchema: z.ZodObject | undefined } {
  const declared = UriTemplate.isTemplate(uri) || added.length > 0 ? parseTemplate(uri, where) : undefined;
  const ownInput = objectSchemaOf(item, "input", options.input);
  if (ownInput && declared) {
    checkInputMatchesTemplate(where, uri, declared.variables, declared.queryVariables, ownInput.shape);
  }
  if (added.length === 0 || !declared) return { template: declared, inputSchema: ownInput };
  return {
    template: withQueryVariables(declared, added),
    inputSchema: capabilities.input(ownInput ?? stringsFor(declared, added)),
  };
}

/** `list` and `complete` need a template, and `complete` may only name its variables. */
function checkTemplateOptions(
  where: string,
  uri: string,
  template: UriTemplate | undefined,
  options: ResourceOptions,
): void {
  if (!template && (options.list || options.complete)) {
    throw new FrugalConfigError(
      where,
      "`list` and `complete` only apply to URI templates",
      `remove them, or use a template such as "${uri}/{id}"`,
    );
  }
  const variables = template?.variables ?? [];
  for (const variable of Object.keys(options.complete ?? {})) {
    if (!variables.includes(variable)) {
      throw new FrugalConfigError(
        where,
        `\`complete\` names "${variable}", which is not a variable of "${uri}"`,
        `use one of: ${variables.join(", ") || "(none)"}`,
      );
    }
  }
}

/** Every key of `ResourceOptions` (the `Record` makes the compiler flag a key added there but not here). */
const RESOURCE_OPTIONS = Object.keys({
  name: true,
  title: true,
  description: true,
  mimeType: true,
  input: true,
  list: true,
  complete: true,
  meta: true,
  visibleTo: true,
} satisfies Record<keyof ResourceOptions, true>);

/** The template with `added` as query variables, those it lacks. */
function withQueryVariables(template: UriTemplate, added: readonly string[]): UriTemplate {
  const missing = added.filter((v) => !template.variables.includes(v));
  if (missing.length === 0) return template;
  const operator = template.queryVariables.length > 0 ? "&" : "?";
  return new UriTemplate(`${template.template}{${operator}${missing.join(",")}}`);
}

/** Without an `input`, template variables are strings (query variables optional), but those its capabilities add. */
function stringsFor(template: UriTemplate, added: readonly string[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const variable of template.variables) {
    if (added.includes(variable)) continue;
    shape[variable] = template.queryVariables.includes(variable) ? z.string().optional() : z.string();
  }
  return z.strictObject(shape);
}

function parseTemplate(uri: string, where: string): UriTemplate {
  try {
    return new UriTemplate(uri);
  } catch (error) {
    throw new FrugalConfigError(
      where,
      String(fieldOf(error, "message")),
      'write the template as RFC 6570 describes, e.g. "logs://{app}{?since,limit}"',
    );
  }
}

function checkInputMatchesTemplate(
  where: string,
  uri: string,
  variables: readonly string[],
  queryVariables: readonly string[],
  shape: Record<string, { safeParse(value: unknown): { success: boolean } }>,
): void {
  for (const variable of variables) {
    if (!(variable in shape)) {
      throw new FrugalConfigError(
        where,
        `template variable "${variable}" of "${uri}" has no matching field in \`input\``,
        `add \`${variable}: z.string()\` (or a coercing type) to \`input\``,
      );
    }
  }
  for (const [field, type] of Object.entries(shape)) {
    if (!variables.includes(field)) {
      throw new FrugalConfigError(
        where,
        `\`input\` field "${field}" is not a variable of "${uri}"`,
        `add {${field}} or {?${field}} to the template, or remove the field`,
      );
    }
    if (queryVariables.includes(field) && !type.safeParse(undefined).success) {
      throw new FrugalConfigError(
        where,
        `query variable "${field}" may be missing from a URI but its schema requires it`,
        `make it \`.optional()\` or give it a \`.default()\``,
      );
    }
  }
}
