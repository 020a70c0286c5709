import { isObject } from "../common/guards.js";
/** A copy of `item` with only `fields` (those it has); anything that is not an object is kept as is. */
export function pickFields(item: unknown, fields: readonly string[]): unknown {
  if (!isObject(item) || Array.isArray(item)) return item;
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    const value = item[field];
    if (value !== undefined) picked[field] = value;
  }
  return picked;
}
