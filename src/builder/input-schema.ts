import { z } from "zod";
import type { InputSchema } from "../metadata/definitions.js";

/**
 * Turns a decorator's `input`/`output` option into a zod object. A plain shape becomes a
 * strict object, so a misspelt argument (`limt`) is reported instead of silently ignored.
 * Returns a string describing the problem when the option is not a zod schema.
 */
export function toObjectSchema(schema: InputSchema | undefined): z.ZodObject | undefined | string {
  if (schema === undefined) return undefined;
  if (schema instanceof z.ZodObject) return schema;
  if (schema instanceof z.ZodType) {
    return "the schema must be a zod object or a shape of zod types, not a single zod type";
  }
  if (typeof schema !== "object" || schema === null) return "the schema must be a shape of zod types";
  for (const [key, value] of Object.entries(schema)) {
    if (!(value instanceof z.ZodType)) return `field "${key}" is not a zod type`;
  }
  return z.strictObject(schema);
}

/** JSON Schema of a zod object as a client sees it (input types, not output types). */
export function toJsonSchema(schema: z.ZodObject, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return { ...json, type: "object" };
}
