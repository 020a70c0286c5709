import { isObject } from "../common/guards.js";
import type { KeyValue } from "./cursor-values.js";

/** The stable, unique key that orders a paginated result, and its direction. */
export interface KeySpec {
  readonly fields: readonly string[];
  readonly order: "asc" | "desc";
}

/** `updatedAt,slug:asc`: what a cursor is bound to besides the query. */
export function describeKeySpec(spec: KeySpec): string {
  return `${spec.fields.join(",")}:${spec.order}`;
}

/** The key values of one item; a missing field is a clear error, not a silent skip. */
export function keyOf(item: unknown, spec: KeySpec, position: number): Record<string, KeyValue> {
  if (!isObject(item)) {
    throw new Error(
      `item ${position} is ${item === null ? "null" : typeof item}, but @Paginated items must be objects with the stable key ${spec.fields.join(", ")}`,
    );
  }
  const key: Record<string, KeyValue> = {};
  for (const field of spec.fields) {
    const value = item[field];
    if (value === undefined) {
      throw new Error(
        `item ${position} has no "${field}", a field of its @Paginated stable key (${spec.fields.join(", ")}); select it in the query`,
      );
    }
    key[field] = value as KeyValue;
  }
  return key;
}

/**
 * Orders two keys field by field: numbers (and bigints) numerically, dates by instant,
 * strings by UTF-16 code unit (use `COLLATE "C"` in SQL to match), booleans false first,
 * null first. Values of different kinds order by kind, so the order is always total.
 */
export function compareKeys(a: Record<string, KeyValue>, b: Record<string, KeyValue>, spec: KeySpec): number {
  for (const field of spec.fields) {
    const difference = compareValues(a[field] ?? null, b[field] ?? null);
    if (difference !== 0) return spec.order === "asc" ? difference : -difference;
  }
  return 0;
}

function rank(value: KeyValue): number {
  if (value === null) return 0;
  if (typeof value === "boolean") return 1;
  if (typeof value === "number" || typeof value === "bigint") return 2;
  if (value instanceof Date) return 3;
  return 4;
}

function compareValues(x: KeyValue, y: KeyValue): number {
  const byRank = rank(x) - rank(y);
  if (byRank !== 0) return byRank;
  if (x instanceof Date && y instanceof Date) return Math.sign(x.getTime() - y.getTime());
  if (x === null || y === null || x === y) return 0;
  return x < y ? -1 : 1;
}
