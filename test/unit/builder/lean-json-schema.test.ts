import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toJsonSchema } from "../../../src/builder/input-schema.js";
import { leanJsonSchema } from "../../../src/builder/lean-json-schema.js";

const MAX = Number.MAX_SAFE_INTEGER;

describe("leanJsonSchema", () => {
  it("drops the bounds of a safe integer, which bound nothing, and keeps real ones", () => {
    expect(leanJsonSchema({ type: "integer", minimum: -MAX, maximum: MAX }, { open: true })).toEqual({
      type: "integer",
    });
    expect(leanJsonSchema({ type: "integer", minimum: 0, maximum: 100 }, { open: true })).toEqual({
      type: "integer",
      minimum: 0,
      maximum: 100,
    });
  });

  it("drops additionalProperties: false only when open, and keeps a schema of extra properties", () => {
    const closed = { type: "object", properties: { a: { type: "string" } }, additionalProperties: false };
    expect(leanJsonSchema(closed, { open: true })).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
    expect(leanJsonSchema(closed, { open: false })).toEqual(closed);
    const record = { type: "object", additionalProperties: { type: "integer", maximum: MAX } };
    expect(leanJsonSchema(record, { open: true })).toEqual({
      type: "object",
      additionalProperties: { type: "integer" },
    });
  });

  it("leans every subschema: properties, items, anyOf, $defs, not, if/then/else", () => {
    const int = { type: "integer", maximum: MAX };
    const schema = {
      type: "object",
      properties: {
        n: int,
        list: { type: "array", items: int },
        nested: { type: "object", additionalProperties: false },
      },
      anyOf: [int, true],
      $defs: { x: int },
      not: int,
      if: int,
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's keyword, not a thenable.
      then: int,
      else: int,
      prefixItems: [int],
    };
    expect(JSON.stringify(leanJsonSchema(schema, { open: true }))).not.toMatch(
      /9007199254740991|additionalProperties/,
    );
  });

  it("never rewrites data: defaults, enums, consts, examples, or a property named like a keyword", () => {
    const schema = {
      type: "object",
      properties: {
        maximum: { type: "integer", default: MAX, enum: [MAX, 1], const: MAX },
        additionalProperties: { type: "boolean", examples: [false] },
        options: { type: "object", default: { additionalProperties: false, maximum: MAX } },
      },
    };
    expect(leanJsonSchema(schema, { open: true })).toEqual(schema);
  });
});

describe("toJsonSchema", () => {
  const shape = z.strictObject({ n: z.number().int().min(0), tag: z.string().max(10).optional() });

  it("advertises an input schema without the keywords that constrain nothing", () => {
    expect(toJsonSchema(shape, "input")).toEqual({
      type: "object",
      properties: { n: { type: "integer", minimum: 0 }, tag: { type: "string", maxLength: 10 } },
      required: ["n"],
    });
  });

  it("keeps additionalProperties: false in an output schema, which clients check structuredContent against", () => {
    expect(toJsonSchema(shape, "output")).toMatchObject({ additionalProperties: false });
  });
});
