import { z } from "zod";
import { fieldOf } from "../common/guards.js";
import type { InputSchema } from "../metadata/definitions.js";
import { leanJsonSchema } from "./lean-json-schema.js";

/** Why a decorator's `input`/`output` option is not a zod 4 schema, and what fixes it. */
export interface SchemaProblem {
  readonly problem: string;
  readonly fix: string;
}

const SHAPE_FIX = "pass a zod shape such as `{ site: z.string() }` or `z.object({ … })`";
const ZOD_3_FIX =
  'import `z` from "zod" (not "zod/v3") with zod 4 installed: `npm install zod@4`; `npm ls zod` lists the copies your project has';
const ZOD_MINI_FIX = 'import `z` from "zod" (the classic API), not from "zod/mini" or "zod/v4/core"';

/**
 * Turns a decorator's `input`/`output` option into a zod object. A plain shape becomes a
 * strict object, so a misspelt argument (`limt`) is reported instead of silently ignored.
 * Returns the problem when the option is not a zod 4 schema, naming a zod 3 schema
 * (`zod/v3`, or a zod 3 install) or a zod mini one as such: "not a zod type" alone sends a
 * user looking at the wrong thing.
 */
export function toObjectSchema(schema: InputSchema | undefined): z.ZodObject | undefined | SchemaProblem {
  if (schema === undefined) return undefined;
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodType) {
    return {
      problem: "the schema must be a zod object or a shape of zod types, not a single zod type",
      fix: SHAPE_FIX,
    };
  }
  const whole = foreignZod(schema, "the schema");
  if (whole) return whole;
  if (typeof schema !== "object" || schema === null)
    return { problem: "the schema must be a shape of zod types", fix: SHAPE_FIX };
  for (const [key, value] of Object.entries(schema)) {
    if (value instanceof z.ZodType) continue;
    return (
      foreignZod(value, `field "${key}"`) ?? { problem: `field "${key}" is not a zod type`, fix: SHAPE_FIX }
    );
  }
  return z.strictObject(schema);
}

/** A schema of another zod than the classic zod 4 API, named as such; undefined for anything else. */
function foreignZod(value: unknown, what: string): SchemaProblem | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if ("_zod" in value) {
    return {
      problem: `${what} is a zod mini (or zod core) schema; frugal-mcp takes schemas of zod 4's classic API`,
      fix: ZOD_MINI_FIX,
    };
  }
  if ("_def" in value && typeof fieldOf(value, "safeParse") === "function") {
    return {
      problem: `${what} is a zod 3 schema (imported from "zod/v3", or from a zod 3 installed beside zod 4); frugal-mcp takes zod 4 schemas`,
      fix: ZOD_3_FIX,
    };
  }
  return undefined;
}

/**
 * JSON Schema of a zod object as a client sees it (input types, not output types), lean:
 * without the keywords that constrain nothing (`leanJsonSchema`). An input schema also drops
 * `additionalProperties: false`, since the validate stage refuses an unknown argument by name;
 * an output schema keeps it, for clients that check `structuredContent` against it.
 */
export function toJsonSchema(schema: z.ZodObject, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" });
  return { ...leanJsonSchema(json, { open: io === "input" }), type: "object" };
}
