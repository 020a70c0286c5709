/**
 * JSON with object keys sorted at every level, so `{ a, b }` and `{ b, a }` give the same
 * text. Dates become ISO strings and bigints tagged strings; `undefined` fields vanish.
 *
 * @example canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] }) // '{"a":[{"c":3,"d":2}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (typeof value === "bigint") return `${value}n`;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== "object") return value;
  // No prototype: an own "__proto__" key (JSON.parse makes one from client input) stays a
  // plain field instead of hitting the prototype setter, so two inputs never share a key.
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) sorted[key] = sortKeys(item);
  }
  return sorted;
}
