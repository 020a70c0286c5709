import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { FrugalConfigError } from "../errors/config-error.js";
import type { TextFormat, ToolOptions } from "../metadata/definitions.js";
import type { ToolDefinition } from "../pipeline/operation.js";
import {
  assertPlainMethod,
  capabilitiesOf,
  commonFields,
  describeMember,
  type MemberToBuild,
  objectSchemaOf,
} from "./build-context.js";
import { OptionChecker, TEXT_FORMATS } from "./check-options.js";
import { toJsonSchema } from "./input-schema.js";
import { leanJsonSchema } from "./lean-json-schema.js";
import { isValidToolName, toSnakeCase } from "./names.js";
import type { ResolvedCapabilities } from "./resolve-capabilities.js";

/** Builds and checks one `@Tool`. */
export function buildTool(item: MemberToBuild): ToolDefinition {
  const options = item.member.metadata.tool ?? {};
  const property = assertPlainMethod(item, "@Tool");
  const where = describeMember(item);
  new OptionChecker(where, "@Tool").knownKeys(options, TOOL_OPTIONS);
  const name = options.name ?? `${item.classMetadata.service?.toolPrefix ?? ""}${toSnakeCase(property)}`;
  checkToolName(where, name);
  const visibility = options.visibility ?? ["model"];
  checkVisibility(where, visibility);
  const capabilities = capabilitiesOf(item, {
    kind: "tool",
    name,
    where,
    property,
    modelVisible: visibility.includes("model"),
  });
  const ownInput = objectSchemaOf(item, "input", options.input);
  const inputSchema = capabilities.input(ownInput);
  const outputSchema = outputSchemaOf(item, options, capabilities);
  const common = commonFields(item, {
    kind: "tool",
    name,
    property,
    where,
    inputSchema,
    capabilities,
    modelVisible: visibility.includes("model"),
    visibleTo: options.visibleTo,
  });
  const text = resolveText(item, options.text, capabilities, visibility.includes("model"));
  const meta = toolMeta(options, visibility, capabilities);
  const listing: Tool = {
    name,
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.description === undefined ? {} : { description: options.description }),
    inputSchema: (options.inputJsonSchema ??
      (inputSchema
        ? toJsonSchema(inputSchema, "input")
        : { type: "object", properties: {} })) as Tool["inputSchema"],
    ...(outputSchema ? { outputSchema: outputJsonSchema(outputSchema) } : {}),
    ...(options.annotations ? { annotations: { ...options.annotations } } : {}),
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  };
  return Object.freeze({
    kind: "tool",
    ...common,
    outputSchema,
    name,
    listing,
    modelVisible: visibility.includes("model"),
    text,
  });
}

function checkToolName(where: string, name: string): void {
  if (!isValidToolName(name)) {
    throw new FrugalConfigError(
      where,
      `tool name "${name}" is not allowed (1–128 characters from A-Z a-z 0-9 _ - .)`,
      "pass a valid `name` to @Tool",
    );
  }
}

function checkVisibility(where: string, visibility: readonly string[]): void {
  if (visibility.length === 0 || visibility.some((v) => v !== "model" && v !== "app")) {
    throw new FrugalConfigError(
      where,
      `visibility ${JSON.stringify(visibility)} is invalid`,
      'use ["model"], ["app"] or both',
    );
  }
}

/** The tool's output schema as clients see it: none unless it declares an `output`. */
function outputSchemaOf(
  item: MemberToBuild,
  options: ToolOptions,
  capabilities: ResolvedCapabilities,
): z.ZodType | undefined {
  const ownOutput = objectSchemaOf(item, "output", options.output);
  // Capabilities change the declared output (a selection makes each field optional), then may
  // wrap it (an envelope around the declared items).
  const capableOutput = ownOutput && capabilities.output(ownOutput);
  const pagedOutput = capableOutput && capabilities.envelope(capableOutput);
  // Capabilities may answer other shapes (a link to a stored result): the declared schema must allow them.
  return pagedOutput && capabilities.result(pagedOutput);
}

/** The listing's `_meta`: the tool's own, its app visibility (`ui`), then hints from its capabilities. */
function toolMeta(
  options: ToolOptions,
  visibility: readonly string[],
  capabilities: ResolvedCapabilities,
): Record<string, unknown> {
  const meta = { ...options.meta };
  if (visibility.includes("app")) meta.ui = { ...(meta.ui as object), visibility: [...visibility] };
  // Hints for hosts from the capabilities; the tool's own `meta` wins.
  for (const [key, value] of Object.entries(capabilities.meta())) if (!(key in meta)) meta[key] = value;
  return meta;
}

/**
 * The tool's text format: `@Tool`'s `text` as its capabilities decide it (they may have their
 * own, which must agree), else the app's, else `"auto"`. An app-only tool's text is not read
 * by a model, so nothing is gained by counting tokens to choose it: unless it says otherwise,
 * it is JSON, as the specification suggests.
 */
function resolveText(
  item: MemberToBuild,
  declared: unknown,
  capabilities: ResolvedCapabilities,
  modelVisible: boolean,
): TextFormat {
  const where = describeMember(item);
  const own =
    declared === undefined
      ? undefined
      : new OptionChecker(where, "@Tool").oneOf("`text`", declared, TEXT_FORMATS);
  return capabilities.textFormat(own) ?? (modelVisible ? (item.appText ?? "auto") : "json");
}

/** Every key of `ToolOptions` (the `Record` makes the compiler flag a key added there but not here). */
const TOOL_OPTIONS = Object.keys({
  name: true,
  title: true,
  description: true,
  input: true,
  output: true,
  inputJsonSchema: true,
  annotations: true,
  visibility: true,
  meta: true,
  text: true,
  visibleTo: true,
} satisfies Record<keyof ToolOptions, true>);

/** MCP wants `type: "object"` at the root, which a union (anyOf) lacks: put it back. */
function outputJsonSchema(schema: z.ZodType): Tool["outputSchema"] {
  if (schema instanceof z.ZodObject) return toJsonSchema(schema, "output") as Tool["outputSchema"];
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io: "output",
    unrepresentable: "any",
  });
  return { type: "object", ...leanJsonSchema(json, { open: false }) } as Tool["outputSchema"];
}
