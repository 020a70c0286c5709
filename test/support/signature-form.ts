/**
 * A tool catalogue written as one-line signatures, `name(arg?: type = default, …) — description`,
 * the shortest form that still says everything a model needs to call each tool: the same
 * names, descriptions, types, enums, bounds and defaults as its JSON Schemas, without the
 * JSON framing. Like `tokensOf`, it leaves out app-only tools, which no model reads. A test
 * holds the real `tools/list` within a small factor of it.
 */

type Schema = Record<string, unknown>;

/** The catalogue as signatures, one line per tool. */
export function signatureForm(
  tools: ReadonlyArray<{
    name: string;
    description?: string | undefined;
    inputSchema: unknown;
    _meta?: unknown;
  }>,
): string {
  return tools
    .filter((tool) => {
      const visibility = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui?.visibility;
      return !Array.isArray(visibility) || visibility.includes("model");
    })
    .map((tool) => {
      const line = `${tool.name}(${params(tool.inputSchema as Schema)})`;
      return tool.description ? `${line} — ${tool.description}` : line;
    })
    .join("\n");
}

function params(schema: Schema): string {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties)
    .map(([name, property]) => {
      const optional = required.has(name) || "default" in property ? "" : "?";
      const fallback = "default" in property ? ` = ${JSON.stringify(property.default)}` : "";
      const note = typeof property.description === "string" ? ` /* ${property.description} */` : "";
      return `${name}${optional}: ${typeOf(property)}${fallback}${note}`;
    })
    .join(", ");
}

/** A TypeScript-like type with the schema's bounds: `int 1..100`, `string ≤200`, `"a"|"b"`. */
function typeOf(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join("|");
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Schema[]).map(typeOf).join("|");
  const type = schema.type;
  // A list of types (`["string", "array"]` with `items`): each type with its own keywords.
  if (Array.isArray(type)) return type.map((one) => typeOf({ ...schema, type: one })).join("|");
  switch (type) {
    case "integer":
    case "number":
      return `${type === "integer" ? "int" : "number"}${range(schema.minimum, schema.maximum)}`;
    case "string":
      return `string${range(schema.minLength, schema.maxLength)}${schema.pattern ? ` /${schema.pattern}/` : ""}`;
    case "boolean":
      return "boolean";
    case "array": {
      const items = typeOf((schema.items ?? {}) as Schema);
      return `${items.includes("|") ? `(${items})` : items}[]${range(schema.minItems, schema.maxItems)}`;
    }
    case "object":
      return schema.properties ? `{${params(schema)}}` : "object";
    default:
      return "any";
  }
}

function range(min: unknown, max: unknown): string {
  if (min === undefined && max === undefined) return "";
  if (max === undefined) return ` ≥${min}`;
  if (min === undefined) return ` ≤${max}`;
  return ` ${min}..${max}`;
}
