import fc from "fast-check";
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

describe("leanJsonSchema, on any schema", () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  const { schema } = fc.letrec((tie) => ({
    schema: fc.record(
      {
        type: fc.constantFrom("integer", "number", "string", "object", "array"),
        minimum: fc.oneof(fc.constant(-MAX), fc.integer({ min: -5, max: 5 })),
        maximum: fc.oneof(fc.constant(MAX), fc.integer({ min: 0, max: 1000 })),
        maxLength: fc.nat(100),
        enum: fc.array(fc.oneof(fc.string(), fc.constant(MAX)), { maxLength: 3 }),
        default: fc.oneof(fc.constant(MAX), fc.constant({ additionalProperties: false })),
        additionalProperties: fc.oneof(fc.boolean(), tie("leaf")),
        properties: fc.dictionary(fc.constantFrom("a", "maximum", "additionalProperties"), tie("leaf"), {
          maxKeys: 3,
        }),
        items: tie("leaf"),
        anyOf: fc.array(tie("leaf"), { maxLength: 2 }),
      },
      { requiredKeys: [] },
    ),
    leaf: fc.record(
      {
        type: fc.constantFrom("integer", "string"),
        maximum: fc.oneof(fc.constant(MAX), fc.nat(10)),
        additionalProperties: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  }));

  /** Drops by hand what the lean pass may drop, walking only schema positions. */
  function expected(node: Record<string, unknown>, open: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "maximum" && value === MAX) continue;
      if (key === "minimum" && value === -MAX) continue;
      if (open && key === "additionalProperties" && value === false) continue;
      const sub = (v: unknown) =>
        typeof v === "object" && v !== null ? expected(v as Record<string, unknown>, open) : v;
      if (key === "properties")
        out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, sub(v)]));
      else if (key === "anyOf") out[key] = (value as unknown[]).map(sub);
      else if (key === "items" || key === "additionalProperties") out[key] = sub(value);
      else out[key] = value;
    }
    return out;
  }

  it("keeps every keyword but the bounds that bound nothing (and, when open, additionalProperties: false)", () => {
    fc.assert(
      fc.property(schema, fc.boolean(), (input, open) => {
        expect(leanJsonSchema(input, { open })).toEqual(expected(input, open));
      }),
      { seed: 2626, numRuns: 300 },
    );
  });
});
