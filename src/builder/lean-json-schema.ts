import { itemAt } from "../common/guards.js";

/**
 * Keywords whose value is one subschema, a map of subschemas, or a list of subschemas: the
 * only places a lean pass looks into, so data (`default`, `enum`, `const`, `examples`) is
 * never rewritten, nor a property that happens to be named like a keyword.
 */
const ONE_SCHEMA: readonly string[] = [
  "items",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
];
const SCHEMA_MAP: readonly string[] = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
];
const SCHEMA_LIST: readonly string[] = ["anyOf", "oneOf", "allOf", "prefixItems"];

/** What a lean pass may drop besides the bounds that bound nothing. */
export interface LeanOptions {
  /**
   * Drop `additionalProperties: false` (input schemas: the server refuses an unknown
   * argument by name anyway, so the keyword tells a model nothing the refusal does not).
   */
  readonly open: boolean;
}

/**
 * A JSON Schema without the keywords that state no constraint, every other keyword kept:
 * `minimum`/`maximum` of ±`Number.MAX_SAFE_INTEGER` (zod's `.int()` writes them on every
 * integer: 9 tokens each that no client can act on), `default: false` on a boolean and, when
 * `open`, `additionalProperties: false`. A union of plain branches of distinct types (`string | string[]`, `string | null`)
 * is written as one schema with a list of types (`collapseTypeUnion`), which accepts exactly
 * the same values in fewer tokens. Every list of tools a model reads pays for these on every call.
 *
 * @example
 * ```ts
 * leanJsonSchema({ type: "integer", minimum: 0, maximum: 9007199254740991 }, { open: true });
 * // { type: "integer", minimum: 0 }
 * leanJsonSchema({ anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] }, { open: true });
 * // { type: ["string", "array"], items: { type: "string" } }
 * ```
 */
export function leanJsonSchema(
  schema: Record<string, unknown>,
  options: LeanOptions,
): Record<string, unknown> {
  const lean: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (isUnbounded(keyword, value)) continue;
    if (options.open && keyword === "additionalProperties" && value === false) continue;
    // An absent flag is false to every reader: `default: false` on a boolean tells nothing.
    if (keyword === "default" && value === false && schema.type === "boolean") continue;
    lean[keyword] = leanValue(keyword, value, options);
  }
  return collapseTypeUnion(lean);
}

/**
 * The keywords that constrain one JSON type only: a branch `{ type: "string", maxLength: 9 }`
 * says nothing about arrays, so it can share a schema with an array branch's `items`.
 * (`format` is left out: some formats apply to numbers too.)
 */
const KEYWORDS_OF_TYPE: Readonly<Record<string, readonly string[]>> = {
  string: ["minLength", "maxLength", "pattern"],
  number: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  integer: ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"],
  array: ["items", "prefixItems", "minItems", "maxItems", "uniqueItems"],
  object: [
    "properties",
    "required",
    "patternProperties",
    "additionalProperties",
    "minProperties",
    "maxProperties",
    "propertyNames",
  ],
  boolean: [],
  null: [],
};

/** Keywords a schema holding a union may carry beside it: they describe, never constrain. */
const ANNOTATIONS = new Set([
  "description",
  "title",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "$comment",
]);

/**
 * `{ anyOf: [{ type: "string" }, { type: "array", items: … }] }` as `{ type: ["string",
 * "array"], items: … }`: the same values, 8 tokens fewer. Only when it is safe: each branch
 * is a plain `type` with keywords of that type alone, the types are distinct (and not both
 * `number` and `integer`, whose keywords would mix), and the schema holding the union carries
 * annotations only. Distinct types make at most one branch match, so `oneOf` collapses too.
 */
function collapseTypeUnion(schema: Record<string, unknown>): Record<string, unknown> {
  const key = "anyOf" in schema ? "anyOf" : "oneOf" in schema ? "oneOf" : undefined;
  if (key === undefined) return schema;
  const branches = schema[key];
  if (!Array.isArray(branches) || branches.length < 2 || !branches.every(isRecord)) return schema;
  if (Object.keys(schema).some((keyword) => keyword !== key && !ANNOTATIONS.has(keyword))) return schema;
  const types = branches.map((branch) => branch.type);
  if (
    !types.every((type): type is string => typeof type === "string" && Object.hasOwn(KEYWORDS_OF_TYPE, type))
  )
    return schema;
  if (new Set(types).size !== types.length || (types.includes("number") && types.includes("integer")))
    return schema;
  const plain = branches.every((branch, i) =>
    Object.keys(branch).every(
      (keyword) => keyword === "type" || KEYWORDS_OF_TYPE[itemAt(types, i)]?.includes(keyword),
    ),
  );
  if (!plain) return schema;
  const merged: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword !== key) {
      merged[keyword] = value;
      continue;
    }
    merged.type = types;
    for (const branch of branches)
      for (const [name, inner] of Object.entries(branch)) if (name !== "type") merged[name] = inner;
  }
  return merged;
}

function isUnbounded(keyword: string, value: unknown): boolean {
  return (
    (keyword === "maximum" && value === Number.MAX_SAFE_INTEGER) ||
    (keyword === "minimum" && value === Number.MIN_SAFE_INTEGER)
  );
}

function leanValue(keyword: string, value: unknown, options: LeanOptions): unknown {
  if (ONE_SCHEMA.includes(keyword)) return leanSchema(value, options);
  if (SCHEMA_LIST.includes(keyword) && Array.isArray(value))
    return value.map((item) => leanSchema(item, options));
  if (SCHEMA_MAP.includes(keyword) && isRecord(value)) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, leanSchema(item, options)]));
  }
  return value;
}

/** A subschema: an object is leaned, a boolean schema (`true`/`false`) stays. */
function leanSchema(value: unknown, options: LeanOptions): unknown {
  return isRecord(value) ? leanJsonSchema(value, options) : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
