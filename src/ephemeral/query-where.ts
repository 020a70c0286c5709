import { QueryError } from "../aggregate/query-errors.js";
import { type FieldPath, fieldPath } from "../aggregate/query-fields.js";

/** The operators `where` accepts, and nothing else (the contract's list). */
export const WHERE_OPERATORS = [
  "$eq",
  "$ne",
  "$gt",
  "$gte",
  "$lt",
  "$lte",
  "$in",
  "$nin",
  "$exists",
  "$regex",
  "$and",
  "$or",
  "$not",
] as const;

const OPERATOR_LIST = `${WHERE_OPERATORS.join(" ")} (with $options "i" beside $regex)`;
/** The operators that apply to one field: all of them but the logical `$and` and `$or`. */
const FIELD_OPERATORS = new Set<string>(WHERE_OPERATORS.filter((op) => op !== "$and" && op !== "$or"));

/** Bounds of one `where`: each keeps the work per item small, and says so when passed. */
export const WHERE_LIMITS = Object.freeze({
  /** Conditions (one per operator on a field) in all. */
  maxConditions: 256,
  /** Nesting of `$and`, `$or` and `$not`. */
  maxDepth: 12,
  /** Values of one `$in` or `$nin` (matched through a hash set: cost per item does not grow with it). */
  maxInValues: 10_000,
  /** Characters of one `$regex` pattern. */
  maxPatternChars: 1000,
});

/** A `$regex` found in `where`, compiled later on RE2; the condition refers to it by index. */
export interface WherePattern {
  readonly part: string;
  readonly pattern: string;
  readonly ignoreCase: boolean;
}

/** A checked `where`, rewritten for the matcher (internal operators), with what it reads. */
export interface CheckedWhere {
  /** The condition in the matcher's terms: `$regex` became `$frugalRegex: index`, a top-level `$not` a `$nor`. */
  readonly condition: Record<string, unknown>;
  readonly patterns: readonly WherePattern[];
  /** The field paths it names, to tell the model when no item has one. */
  readonly fields: readonly FieldPath[];
}

/** Internal operator names the matcher registers; a client naming one is refused like any unknown operator. */
export const INTERNAL_REGEX = "$frugalRegex";
export const INTERNAL_NOR = "$nor";

/**
 * Checks a MongoDB-syntax `where` before anything runs: only the contract's operators, at
 * most `WHERE_LIMITS`, dotted field paths without `__proto__`, and values of the right
 * kind for each operator. Throws a `QueryError` naming the bad part (`where.state.$foo`).
 *
 * @example checkWhere({ state: "open", labels: { $in: ["bug"] } })
 */
export function checkWhere(where: unknown): CheckedWhere {
  const state: CheckState = { conditions: 0, patterns: [], fields: new Map<string, FieldPath>() };
  const condition = checkClause(where, "where", 0, state);
  return { condition, patterns: state.patterns, fields: [...state.fields.values()] };
}

interface CheckState {
  conditions: number;
  patterns: WherePattern[];
  fields: Map<string, FieldPath>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function checkClause(
  clause: unknown,
  part: string,
  depth: number,
  state: CheckState,
): Record<string, unknown> {
  if (!isRecord(clause)) throw new QueryError(part, 'must be an object such as {"state":"open"}');
  if (depth > WHERE_LIMITS.maxDepth)
    throw new QueryError(part, `$and, $or and $not nest at most ${WHERE_LIMITS.maxDepth} deep`);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(clause)) {
    const value = clause[key];
    const at = `${part}.${key}`;
    if (key === "__proto__") throw new QueryError(at, "__proto__ is not a field name");
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(value) || value.length === 0)
        throw new QueryError(at, `${key} takes a non-empty array of conditions, like [{"a":1},{"b":2}]`);
      set(
        out,
        key,
        value.map((entry, i) => checkClause(entry, `${at}.${i}`, depth + 1, state)),
      );
    } else if (key === "$not") {
      // A top-level $not (MongoDB has it per field only) negates a whole condition.
      set(out, INTERNAL_NOR, [checkClause(value, at, depth + 1, state)]);
    } else if (key.startsWith("$")) {
      throw unknownOperator(at, key);
    } else {
      const field = fieldPath(key, at);
      state.fields.set(field.path, field);
      set(out, key, checkFieldCondition(value, at, depth, state));
    }
  }
  return out;
}

function checkFieldCondition(value: unknown, part: string, depth: number, state: CheckState): unknown {
  if (!isRecord(value) || !Object.keys(value).some((k) => k.startsWith("$"))) {
    count(part, state);
    return { $eq: literal(value, part) };
  }
  const keys = Object.keys(value);
  const plain = keys.find((k) => !k.startsWith("$"));
  if (plain !== undefined)
    throw new QueryError(
      part,
      `mixes operators with the field "${plain}"; write {"$gte":1,"$lt":5} or {"a":{"b":1}}`,
    );
  const out: Record<string, unknown> = {};
  if (Object.hasOwn(value, "$options") && !Object.hasOwn(value, "$regex"))
    throw new QueryError(`${part}.$options`, "$options goes with $regex");
  for (const key of keys) {
    const operand = value[key];
    const at = `${part}.${key}`;
    if (key === "$options") continue;
    if (!FIELD_OPERATORS.has(key)) throw unknownOperator(at, key);
    count(at, state);
    switch (key) {
      case "$in":
      case "$nin":
        set(out, key, inList(operand, at));
        break;
      case "$exists":
        if (typeof operand !== "boolean") throw new QueryError(at, "$exists takes true or false");
        set(out, key, operand);
        break;
      case "$regex":
        set(out, INTERNAL_REGEX, regexIndex(operand, value.$options, at, state));
        break;
      case "$not":
        if (depth + 1 > WHERE_LIMITS.maxDepth)
          throw new QueryError(at, `$and, $or and $not nest at most ${WHERE_LIMITS.maxDepth} deep`);
        set(out, key, checkFieldCondition(operand, at, depth + 1, state));
        break;
      case "$gt":
      case "$gte":
      case "$lt":
      case "$lte":
        if (typeof operand !== "number" && typeof operand !== "string")
          throw new QueryError(
            at,
            `${key} compares with a number or a string (ISO dates compare as strings)`,
          );
        set(out, key, operand);
        break;
      default:
        set(out, key, literal(operand, at));
    }
  }
  return out;
}

function inList(operand: unknown, part: string): unknown[] {
  if (!Array.isArray(operand)) throw new QueryError(part, 'takes an array of values, like ["bug","ui"]');
  if (operand.length > WHERE_LIMITS.maxInValues)
    throw new QueryError(
      part,
      `takes at most ${WHERE_LIMITS.maxInValues} values; narrow it or split the query`,
    );
  return operand.map((value, i) => literal(value, `${part}.${i}`));
}

function regexIndex(pattern: unknown, options: unknown, part: string, state: CheckState): number {
  if (typeof pattern !== "string" || pattern.length === 0)
    throw new QueryError(part, 'takes a non-empty pattern string, like "time ?out"');
  if (pattern.length > WHERE_LIMITS.maxPatternChars)
    throw new QueryError(part, `a pattern may be at most ${WHERE_LIMITS.maxPatternChars} characters`);
  if (options !== undefined && options !== "" && options !== "i")
    throw new QueryError(part.replace(/\$regex$/, "$options"), '$options may only be "i" (ignore case)');
  state.patterns.push({ part, pattern, ignoreCase: options === "i" });
  return state.patterns.length - 1;
}

function count(part: string, state: CheckState) {
  state.conditions++;
  if (state.conditions > WHERE_LIMITS.maxConditions)
    throw new QueryError(part, `where may hold at most ${WHERE_LIMITS.maxConditions} conditions`);
}

/** A value compared as data: any JSON, but no `__proto__` key at any depth. */
function literal(value: unknown, part: string): unknown {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next !== "object" || next === null) continue;
    if (Array.isArray(next)) stack.push(...next);
    else {
      if (Object.hasOwn(next, "__proto__")) throw new QueryError(part, "__proto__ is not a field name");
      stack.push(...Object.values(next));
    }
  }
  return value;
}

function unknownOperator(part: string, name: string): QueryError {
  return new QueryError(part, `unknown operator "${name}"; where takes exactly ${OPERATOR_LIST}`);
}

/** An own property whatever its name. */
function set(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
