import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
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

describe("leanJsonSchema, on unions of types", () => {
  const lean = (schema: Record<string, unknown>) => leanJsonSchema(schema, { open: true });

  it("writes a union of plain branches of distinct types as one schema with a list of types", () => {
    const names = { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] };
    expect(lean({ ...names, description: "one or several" })).toEqual({
      description: "one or several",
      type: ["string", "array"],
      items: { type: "string" },
    });
    // zod's nullable, and a oneOf: distinct types let at most one branch match.
    expect(lean({ oneOf: [{ type: "string", maxLength: 9 }, { type: "null" }], default: null })).toEqual({
      type: ["string", "null"],
      maxLength: 9,
      default: null,
    });
    // Inside properties too, after each branch is leaned.
    expect(
      lean({
        type: "object",
        properties: { n: { anyOf: [{ type: "integer", maximum: MAX }, { type: "string" }] } },
      }),
    ).toEqual({
      type: "object",
      properties: { n: { type: ["integer", "string"] } },
    });
  });

  it("keeps a union whose merge would accept other values or lose what a branch says", () => {
    const kept = [
      { anyOf: [{ type: "string", description: "a slug" }, { type: "integer" }] }, // a branch's own annotation
      {
        anyOf: [
          { type: "string", minLength: 1 },
          { type: "string", maxLength: 1 },
        ],
      }, // the same type twice
      {
        anyOf: [
          { type: "integer", minimum: 0 },
          { type: "number", maximum: 1 },
        ],
      }, // integer is a number
      { anyOf: [{ type: "string", minimum: 3 }, { type: "array" }] }, // a keyword of another type
      { anyOf: [{ type: "string", format: "email" }, { type: "null" }] }, // formats may check numbers too
      { anyOf: [{ type: "string" }, { type: "null" }], minLength: 2 }, // a constraint beside the union
      { anyOf: [{ type: "string" }, { enum: [1, 2] }] }, // a branch with no type
      { anyOf: [{ type: "string" }] }, // one branch
    ];
    for (const schema of kept) expect(lean(schema)).toEqual(schema);
  });

  it("drops default: false on a boolean, which every reader assumes, and keeps any other default", () => {
    expect(lean({ type: "boolean", default: false })).toEqual({ type: "boolean" });
    expect(lean({ type: "boolean", default: true })).toEqual({ type: "boolean", default: true });
    expect(lean({ type: ["boolean", "null"], default: false })).toEqual({
      type: ["boolean", "null"],
      default: false,
    });
    expect(lean({ type: "integer", default: 0 })).toEqual({ type: "integer", default: 0 });
  });

  it("accepts exactly the values the union accepted (checked by the SDK's own validator)", () => {
    const validator = new AjvJsonSchemaValidator();
    const branch = fc.oneof(
      fc.record({ type: fc.constant("string"), maxLength: fc.nat(3) }, { requiredKeys: ["type"] }),
      fc.record(
        { type: fc.constant("integer"), minimum: fc.integer({ min: -2, max: 2 }) },
        { requiredKeys: ["type"] },
      ),
      fc.record(
        { type: fc.constant("number"), maximum: fc.integer({ min: -2, max: 2 }) },
        { requiredKeys: ["type"] },
      ),
      fc.record(
        { type: fc.constant("array"), items: fc.constant({ type: "string" }), maxItems: fc.nat(2) },
        { requiredKeys: ["type"] },
      ),
      fc.record({ type: fc.constant("object"), required: fc.constant(["a"]) }, { requiredKeys: ["type"] }),
      fc.constantFrom({ type: "null" }, { type: "boolean" }, { type: "string", description: "x" }),
    );
    const union = fc.record({
      keyword: fc.constantFrom("anyOf", "oneOf"),
      branches: fc.array(branch, { minLength: 2, maxLength: 3 }),
    });
    const value = fc.oneof(
      fc.string({ maxLength: 4 }),
      fc.integer({ min: -3, max: 3 }),
      fc.double({ min: -3, max: 3, noNaN: true }),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom("a", "b"), fc.integer()),
    );
    fc.assert(
      fc.property(union, fc.array(value, { minLength: 1, maxLength: 8 }), ({ keyword, branches }, values) => {
        const before = validator.getValidator({ [keyword]: branches });
        const after = validator.getValidator(lean({ [keyword]: branches }));
        for (const v of values) expect(after(v).valid).toBe(before(v).valid);
      }),
      { seed: 2626, numRuns: 400 },
    );
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
