import { z } from "zod";
import { describe, OptionChecker } from "../builder/check-options.js";
import { defineCapability } from "../decorators/define-capability.js";
import type { CapabilityTarget } from "../pipeline/capability.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import { isPlainObject } from "../results/shape-tool-result.js";
import { pickFields } from "./pick-fields.js";

/** Options of `@Project`. */
export interface ProjectOptions {
  /** Fields returned when the client asks for none (default: all of `fields`). */
  defaultFields?: readonly string[];
}

/** `@Project`, checked: the fields a client may select and those returned by default. */
export interface ProjectionSpec {
  readonly fields: readonly string[];
  readonly defaultFields: readonly string[];
}

/**
 * Projection for a tool that is not paginated: adds an optional `fields` input (names
 * from `fields`; an unknown name is an invalid argument), and the result (an object, an
 * array of objects, or an object's `items`) keeps only those fields, `defaultFields` when
 * none are asked. The handler sees `fields` in its input, to push it down if it can. Its
 * stage runs next to the handler, so the budget counts and the cache stores the projected
 * result; the selection is part of the input, hence of the cache key.
 *
 * @example
 * ```ts
 * @Tool({ input: { id: z.string() } })
 * @Project(["id", "title", "body", "author"], { defaultFields: ["id", "title"] })
 * article({ id }: { id: string }) { return this.repo.get(id); }
 * // client: { id: "a1", fields: ["title", "author"] } → { title: "…", author: "…" }
 * ```
 */
export const Project = defineCapability({
  name: "project",
  decorator: "@Project",
  on: ["tool"],
  options: (fields: readonly string[], options: ProjectOptions = {}) => ({ fields, options }),
  resolve: resolveProjection,
  input(spec, input, target) {
    if (input?.shape.fields)
      target.fail(
        "adds a `fields` input, but the tool's `input` already has one",
        "rename the tool's own `fields` input",
      );
    const fields = z
      .array(z.enum(spec.fields as [string, ...string[]]))
      .min(1)
      .optional()
      .describe(`Default: ${spec.defaultFields.join(", ")}`);
    return input ? input.extend({ fields }) : z.object({ fields });
  },
  // A selection leaves fields out: each declared field becomes optional.
  output: (_spec, output) => output.partial(),
  stage: {
    after: "paginate",
    create: (spec) => async (call, next) => {
      const value = await next();
      if (isErrorResult(value)) return value;
      const asked = (call.input as { fields?: readonly string[] } | undefined)?.fields;
      const fields = asked ?? spec.defaultFields;
      if (Array.isArray(value)) return value.map((item) => pickFields(item, fields));
      if (isPlainObject(value) && Array.isArray(value.items)) {
        return { ...value, items: value.items.map((item) => pickFields(item, fields)) };
      }
      return pickFields(value, fields);
    },
  },
});

function resolveProjection(
  declared: { fields: unknown; options: unknown },
  target: CapabilityTarget,
): ProjectionSpec {
  if (target.carries("@Paginated")) {
    target.fail(
      "cannot be combined with @Paginated",
      "use @Paginated's own `fields` and `defaultFields` options, and remove @Project",
    );
  }
  const fields = fieldNames(target, "fields", declared.fields);
  if (fields.length === 0) target.fail("needs at least one field", 'e.g. @Project(["id", "title"])');
  const options = new OptionChecker(target.where, "@Project").knownKeys(declared.options, ["defaultFields"]);
  const asked = options.defaultFields;
  const defaultFields = asked === undefined ? fields : fieldNames(target, "`defaultFields`", asked);
  const unknown = defaultFields.find((f) => !fields.includes(f));
  if (unknown !== undefined) {
    target.fail(
      `\`defaultFields\` names "${unknown}", which is not one of its fields`,
      `add "${unknown}" to the fields, or remove it from \`defaultFields\``,
    );
  }
  return Object.freeze({
    fields: Object.freeze([...fields]),
    defaultFields: Object.freeze([...defaultFields]),
  });
}

function fieldNames(target: CapabilityTarget, name: string, value: unknown): string[] {
  const fix = 'e.g. @Project(["id", "title"], { defaultFields: ["id"] })';
  if (!Array.isArray(value))
    target.fail(`${name} must be an array of field names, not ${describe(value)}`, fix);
  const bad = value.find((f) => typeof f !== "string" || f === "");
  if (bad !== undefined) target.fail(`${name} must hold non-empty field names, not ${describe(bad)}`, fix);
  return [...value];
}
