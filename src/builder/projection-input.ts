import { z } from "zod";
import type { MethodMetadata } from "../metadata/definitions.js";
import type { ProjectionSpec } from "../metadata/specs.js";
import { describe, OptionChecker } from "./check-options.js";

/** Checks `@Project` on one tool and resolves it; `undefined` when the tool has none. */
export function resolveProjection(
  where: string,
  kind: "tool" | "resource" | "prompt",
  metadata: MethodMetadata,
): ProjectionSpec | undefined {
  const declared = metadata.project;
  if (!declared) return undefined;
  const check: OptionChecker = new OptionChecker(where, "@Project");
  if (kind !== "tool") check.fail("applies to tools only", "remove @Project, or make this method a @Tool");
  if (metadata.paginated) {
    check.fail(
      "cannot be combined with @Paginated",
      "use @Paginated's own `fields` and `defaultFields` options, and remove @Project",
    );
  }
  const fields = fieldNames(check, "fields", declared.fields);
  if (fields.length === 0) check.fail("needs at least one field", 'e.g. @Project(["id", "title"])');
  const options = check.knownKeys(declared.options, ["defaultFields"]);
  const defaultFields =
    options.defaultFields === undefined
      ? fields
      : fieldNames(check, "`defaultFields`", options.defaultFields);
  const unknown = defaultFields.find((f) => !fields.includes(f));
  if (unknown !== undefined) {
    check.fail(
      `\`defaultFields\` names "${unknown}", which is not one of its fields`,
      `add "${unknown}" to the fields, or remove it from \`defaultFields\``,
    );
  }
  return Object.freeze({
    fields: Object.freeze([...fields]),
    defaultFields: Object.freeze([...defaultFields]),
  });
}

/** The tool's input with the optional `fields` selection added; refuses an input that already has `fields`. */
export function withProjectionInput(
  where: string,
  input: z.ZodObject | undefined,
  spec: ProjectionSpec,
): z.ZodObject {
  if (input?.shape.fields) {
    new OptionChecker(where, "@Project").fail(
      "adds a `fields` input, but the tool's `input` already has one",
      "rename the tool's own `fields` input",
    );
  }
  const fields = z
    .array(z.enum(spec.fields as [string, ...string[]]))
    .min(1)
    .optional()
    .describe(`Fields to return (default: ${spec.defaultFields.join(", ")}).`);
  return input ? input.extend({ fields }) : z.object({ fields });
}

function fieldNames(check: OptionChecker, name: string, value: unknown): string[] {
  const fix = 'e.g. @Project(["id", "title"], { defaultFields: ["id"] })';
  if (!Array.isArray(value))
    check.fail(`${name} must be an array of field names, not ${describe(value)}`, fix);
  const bad = value.find((f) => typeof f !== "string" || f === "");
  if (bad !== undefined) check.fail(`${name} must hold non-empty field names, not ${describe(bad)}`, fix);
  return [...value] as string[];
}
