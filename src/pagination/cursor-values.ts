import type { StableKeyValue } from "./page-context.js";
/**
 * What a cursor carries: stable key values (and extra state) keep their types through it,
 * so dates come back as `Date` and bigints as `bigint`, not as strings.
 */
export type KeyValue = StableKeyValue;

/**
 * `value`, if a cursor can carry it: a string, a finite number, a boolean, a bigint, a valid
 * Date or null. Anything else is a `TypeError` saying what it got.
 *
 * @example
 * ```ts
 * checkKeyValue(new Date("2026-01-02")); // the Date
 * checkKeyValue(Number.NaN);             // TypeError: … not NaN
 * ```
 */
export function checkKeyValue(value: unknown): KeyValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "bigint") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  throw new TypeError(
    `a stable key value must be a string, number, boolean, bigint, Date or null, not ${describe(value)}`,
  );
}

function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "number") return String(value);
  if (value instanceof Date) return "an invalid Date";
  return typeof value === "object" && value !== null ? (value.constructor?.name ?? "object") : typeof value;
}
