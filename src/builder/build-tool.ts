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
  if (!isValidToolName(name)) {
    throw new FrugalConfigError(
      where,
      `tool name "${name}" is not allowed (1–128 characters from A-Z a-z 0-9 _ - .)`,
      "pass a valid `name` to @Tool",
    );
  }
  const visibility = options.visibility ?? ["model"];
  if (visibility.length === 0 || visibility.some((v) => v !== "model" && v !== "app")) {
    throw new FrugalConfigError(
      where,
      `visibility ${JSON.stringify(visibility)} is invalid`,
      'use ["model"], ["app"] or both',
    );
  }
  const capabilities = capabilitiesOf(item, { kind: "tool", name, where, property });
  const ownInput = objectSchemaOf(item, "input", options.input);
  const inputSchema = capabilities.input(ownInput);
  const ownOutput = objectSchemaOf(item, "output", options.output);
  // Capabilities change the declared output (a selection makes each field optional), then may
  // wrap it (an envelope around the declared items).
  const capableOutput = ownOutput && capabilities.output(ownOutput);
  const pagedOutput = capableOutput && capabilities.envelope(capableOutput);
  // A spilled result answers `{ spilled: { uri, size, expiresAt } }`: the declared schema must allow it.
  const outputSchema =
    pagedOutput && item.member.metadata.ephemeral ? z.union([pagedOutput, SPILLED_SCHEMA]) : pagedOutput;
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
  const meta = { ...options.meta };
  if (visibility.includes("app")) meta.ui = { ...(meta.ui as object), visibility: [...visibility] };
  // Hosts that cut long results read this hint; a result held to its budget never needs cutting.
  if (common.budget && !(MAX_RESULT_SIZE_META in meta))
    meta[MAX_RESULT_SIZE_META] = maxResultSizeChars(common.budget.tokens);
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

/**
 * The `_meta` key of the largest result, in characters, a host should take from a tool before
 * cutting it or writing it to disk (Claude Code reads it). frugal-mcp advertises it for every
 * tool held to a budget.
 */
export const MAX_RESULT_SIZE_META = "anthropic/maxResultSizeChars";

/** Characters per budgeted token in the hint: text averages about 4 per o200k token; twice that is room for any. */
const CHARS_PER_TOKEN = 8;
/** The largest hint hosts accept. */
const MAX_RESULT_SIZE_CHARS = 500_000;

function maxResultSizeChars(tokens: number): number {
  return Math.min(MAX_RESULT_SIZE_CHARS, tokens * CHARS_PER_TOKEN);
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

/** What a spilled call puts in `structuredContent`. */
const SPILLED_SCHEMA = z.object({
  spilled: z.object({ uri: z.string(), size: z.number(), expiresAt: z.string() }),
  nextCursor: z.string().nullable().optional(),
});

/** MCP wants `type: "object"` at the root, which a union (anyOf) lacks: put it back. */
function outputJsonSchema(schema: z.ZodType): Tool["outputSchema"] {
  if (schema instanceof z.ZodObject) return toJsonSchema(schema, "output") as Tool["outputSchema"];
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, {
    io: "output",
    unrepresentable: "any",
  }) as Record<string, unknown>;
  return { type: "object", ...leanJsonSchema(json, { open: false }) } as Tool["outputSchema"];
}
