import { QueryError } from "./query-errors.js";

/** Longest field path a query may name, and most segments in it. */
const MAX_PATH_CHARS = 256;
const MAX_SEGMENTS = 32;
/** Arrays nested in arrays that a path walks through at most (hostile data cannot recurse deeper). */
const MAX_ARRAY_NESTING = 64;

/** A checked dotted field path (`labels`, `author.login`, `comments.0.body`), split once. */
export interface FieldPath {
  readonly path: string;
  readonly segments: readonly string[];
}

/**
 * Checks a dotted field path the client named at `part`: non-empty segments, no `$`
 * operator as a segment, and never `__proto__` (reading through it would reach
 * `Object.prototype`; every read here also checks own properties).
 */
export function fieldPath(path: unknown, part: string): FieldPath {
  if (typeof path !== "string" || path.length === 0)
    throw new QueryError(part, 'a field name must be a non-empty string such as "state" or "author.login"');
  if (path.length > MAX_PATH_CHARS)
    throw new QueryError(part, `a field path may be at most ${MAX_PATH_CHARS} characters`);
  const segments = path.split(".");
  if (segments.length > MAX_SEGMENTS)
    throw new QueryError(part, `a field path may have at most ${MAX_SEGMENTS} segments`);
  for (const segment of segments) {
    if (segment.length === 0)
      throw new QueryError(part, `"${path}" has an empty segment; write dotted paths like "author.login"`);
    if (segment === "__proto__") throw new QueryError(part, `"${path}": __proto__ is not a field name`);
    if (segment.startsWith("$"))
      throw new QueryError(part, `"${path}": "${segment}" is an operator, not a field name`);
  }
  return { path, segments };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Every value at `field` of `value`, MongoDB-style: a path walks through arrays (each
 * element), a numeric segment also indexes an array, and an array at the end gives its
 * elements. Missing fields give nothing. Only own properties are read.
 *
 * @example valuesAt({ labels: ["bug", "ui"] }, fieldPath("labels", "x")) // ["bug", "ui"]
 */
export function valuesAt(value: unknown, field: FieldPath): unknown[] {
  const out: unknown[] = [];
  collect(value, field.segments, 0, out, 0);
  return out;
}

function collect(value: unknown, segments: readonly string[], i: number, out: unknown[], nesting: number) {
  if (nesting > MAX_ARRAY_NESTING) return;
  if (i === segments.length) {
    if (Array.isArray(value)) for (const element of value) out.push(element);
    else if (value !== undefined) out.push(value);
    return;
  }
  const segment = segments[i] as string;
  if (Array.isArray(value)) {
    if (/^\d+$/.test(segment)) {
      const index = Number(segment);
      if (index < value.length) collect(value[index], segments, i + 1, out, nesting);
      return;
    }
    for (const element of value) collect(element, segments, i, out, nesting + 1);
    return;
  }
  if (isRecord(value) && Object.hasOwn(value, segment))
    collect(value[segment], segments, i + 1, out, nesting);
}

/** Whether `value` has anything at `field` (an explicit `null` counts: the field exists). */
export function hasField(value: unknown, field: FieldPath): boolean {
  return valuesAt(value, field).length > 0;
}

/**
 * The item with only the `fields` selected (MongoDB inclusion projection): nested paths
 * keep their parents, through arrays of objects. An item that is not an object is kept
 * whole. A path inside another selected path adds nothing (`a` wins over `a.b`).
 *
 * @example project({ id: 1, author: { login: "ada", id: 9 }, body: "…" }, [id, author.login])
 * // { id: 1, author: { login: "ada" } }
 */
export function project(item: unknown, fields: readonly FieldPath[]): unknown {
  if (!isRecord(item)) return item;
  const out: Record<string, unknown> = {};
  for (const field of withoutNested(fields)) copyInto(item, out, field.segments, 0);
  return out;
}

/** Drops paths that lie inside another selected path, so two paths never write one place twice. */
function withoutNested(fields: readonly FieldPath[]): FieldPath[] {
  return fields.filter(
    (field) => !fields.some((other) => other !== field && field.path.startsWith(`${other.path}.`)),
  );
}

function copyInto(
  source: Record<string, unknown>,
  target: Record<string, unknown>,
  segments: readonly string[],
  i: number,
) {
  const key = segments[i] as string;
  if (!Object.hasOwn(source, key)) return;
  const value = source[key];
  if (i === segments.length - 1) {
    define(target, key, value);
    return;
  }
  if (Array.isArray(value)) {
    // Elements that are objects keep the selected fields; others cannot hold them.
    const objects = value.filter(isRecord);
    let copies = target[key];
    if (!Array.isArray(copies)) {
      copies = objects.map(() => ({}));
      define(target, key, copies);
    }
    objects.forEach((element, n) => {
      copyInto(element, (copies as Record<string, unknown>[])[n] as Record<string, unknown>, segments, i + 1);
    });
    return;
  }
  if (!isRecord(value)) return;
  const existing = target[key];
  const copy: Record<string, unknown> = isRecord(existing) ? existing : {};
  if (copy !== existing) define(target, key, copy);
  copyInto(value, copy, segments, i + 1);
}

/** An own data property, whatever the key (a plain assignment of `__proto__` would set the prototype). */
function define(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Orders any two JSON values as MongoDB sorts mixed types: missing and null first, then
 * numbers, strings (by code unit), objects, arrays, booleans.
 */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return 0;
  if (ra === 1 || ra === 2 || ra === 5) {
    const x = a as number | string | boolean;
    const y = b as number | string | boolean;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = JSON.stringify(a);
  const y = JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function rank(value: unknown): number {
  if (value === null || value === undefined) return 0;
  switch (typeof value) {
    case "number":
      return 1;
    case "string":
      return 2;
    case "boolean":
      return 5;
    default:
      return Array.isArray(value) ? 4 : 3;
  }
}

/**
 * The value an item sorts by on `field`: the field's value, `null` when missing, and for
 * an array the least element ascending, the greatest descending (as MongoDB does).
 */
export function sortValue(item: unknown, field: FieldPath, direction: 1 | -1): unknown {
  const values = valuesAt(item, field);
  if (values.length === 0) return null;
  let best = values[0];
  for (let i = 1; i < values.length; i++) {
    const order = compareValues(values[i], best);
    if (direction === 1 ? order < 0 : order > 0) best = values[i];
  }
  return best ?? null;
}
