/** A copy of `item` with only `fields` (those it has); anything that is not an object is kept as is. */
export function pickFields(item: unknown, fields: readonly string[]): unknown {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return item;
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (item as Record<string, unknown>)[field];
    if (value !== undefined) picked[field] = value;
  }
  return picked;
}
