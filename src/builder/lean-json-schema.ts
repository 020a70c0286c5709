/**
 * Keywords whose value is one subschema, a map of subschemas, or a list of subschemas: the
 * only places a lean pass looks into, so data (`default`, `enum`, `const`, `examples`) is
 * never rewritten, nor a property that happens to be named like a keyword.
 */
const ONE_SCHEMA = [
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
] as const;
const SCHEMA_MAP = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;
const SCHEMA_LIST = ["anyOf", "oneOf", "allOf", "prefixItems"] as const;

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
 * integer: 9 tokens each that no client can act on) and, when `open`, `additionalProperties:
 * false`. Every list of tools a model reads pays for these on every call.
 *
 * @example
 * ```ts
 * leanJsonSchema({ type: "integer", minimum: 0, maximum: 9007199254740991 }, { open: true });
 * // { type: "integer", minimum: 0 }
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
    lean[keyword] = leanValue(keyword, value, options);
  }
  return lean;
}

function isUnbounded(keyword: string, value: unknown): boolean {
  return (
    (keyword === "maximum" && value === Number.MAX_SAFE_INTEGER) ||
    (keyword === "minimum" && value === Number.MIN_SAFE_INTEGER)
  );
}

function leanValue(keyword: string, value: unknown, options: LeanOptions): unknown {
  if ((ONE_SCHEMA as readonly string[]).includes(keyword)) return leanSchema(value, options);
  if ((SCHEMA_LIST as readonly string[]).includes(keyword) && Array.isArray(value))
    return value.map((item) => leanSchema(item, options));
  if ((SCHEMA_MAP as readonly string[]).includes(keyword) && isRecord(value)) {
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
