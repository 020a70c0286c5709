import { QueryError } from "../aggregate/query-errors.js";
import { type FieldPath, fieldPath } from "../aggregate/query-fields.js";
import type { GroupSpec } from "../aggregate/query-groups.js";
import { isObject } from "../common/guards.js";
import { type CheckedWhere, checkWhere } from "./query-where.js";

/** The aggregate input (`{ count?, groupBy?, sum?, min?, max?, avg?, top? }`), as validated by its schema. */
export interface AggregateInput {
  count?: boolean | undefined;
  groupBy?: string | string[] | undefined;
  sum?: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
  avg?: string | undefined;
  top?: number | undefined;
}

/** The input of `query_resource`, as validated by its schema. */
export interface QueryInput {
  uri: string;
  where?: Record<string, unknown> | undefined;
  select?: string[] | undefined;
  groupBy?: string | string[] | undefined;
  aggregate?: AggregateInput | undefined;
  orderBy?: Record<string, unknown> | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** One `orderBy` key. */
export interface OrderKey {
  readonly field: FieldPath;
  readonly direction: 1 | -1;
}

/** A checked query: what to match, and either the items to page or the groups to count. */
export interface QueryPlan {
  readonly where: CheckedWhere;
  /** Items mode: fields kept of each item (undefined: whole items). */
  readonly select?: readonly FieldPath[] | undefined;
  readonly orderBy: readonly OrderKey[];
  /** Groups mode: what to count; undefined in items mode. */
  readonly groups?: Omit<GroupSpec, "maxGroups"> | undefined;
  /** Every field path the query names outside `where`, with the part that names it. */
  readonly named: ReadonlyArray<{ readonly field: FieldPath; readonly part: string }>;
}

/** Keys of `orderBy` at most, and fields of `select` or `groupBy` at most. */
const MAX_ORDER_KEYS = 4;
const MAX_FIELDS = 50;
/** Group values `orderBy` may sort groups by, besides the `groupBy` fields. */
const GROUP_VALUES = new Set(["count", "sum", "min", "max", "avg"]);

/**
 * Checks a query's parts against each other and the contract, before anything is read:
 * `where` (see `checkWhere`), field paths, `orderBy` directions, and which parts go
 * together (groups have no `select`, `limit` or `cursor`). Throws `QueryError` naming the part.
 */
export function planQuery(input: QueryInput): QueryPlan {
  const where = checkWhere(input.where ?? {});
  const named: Array<{ field: FieldPath; part: string }> = [];
  const field = (path: unknown, part: string) => {
    const checked = fieldPath(path, part);
    named.push({ field: checked, part });
    return checked;
  };
  const grouping = input.aggregate !== undefined || input.groupBy !== undefined;
  if (!grouping) {
    const select =
      input.select && fieldList(input.select, "select").map((path, i) => field(path, `select.${i}`));
    const orderBy = orderKeys(input.orderBy, (path, part) => field(path, part));
    return { where, select, orderBy, named };
  }
  for (const part of ["select", "limit", "cursor"] as const) {
    if (input[part] !== undefined)
      throw new QueryError(
        part,
        `does not go with groupBy or aggregate: groups come in one answer, largest first (use aggregate.top to keep the N largest)`,
      );
  }
  const aggregate = input.aggregate ?? {};
  const outer = input.groupBy === undefined ? undefined : fieldList(input.groupBy, "groupBy");
  const inner =
    aggregate.groupBy === undefined ? undefined : fieldList(aggregate.groupBy, "aggregate.groupBy");
  if (outer && inner && JSON.stringify(outer) !== JSON.stringify(inner))
    throw new QueryError(
      "groupBy",
      "is given twice (top level and in aggregate) with different fields; give it once",
    );
  const groupPart = outer ? "groupBy" : "aggregate.groupBy";
  const groupBy = (outer ?? inner ?? []).map((path, i) => field(path, `${groupPart}.${i}`));
  const measure = (name: "sum" | "min" | "max" | "avg") =>
    aggregate[name] === undefined ? undefined : field(aggregate[name], `aggregate.${name}`);
  const groups = {
    groupBy,
    sum: measure("sum"),
    min: measure("min"),
    max: measure("max"),
    avg: measure("avg"),
    top: aggregate.top,
  };
  const orderBy = orderKeys(input.orderBy, (path, part) => {
    if (typeof path === "string" && (GROUP_VALUES.has(path) || groupBy.some((g) => g.path === path)))
      return fieldPath(path, part);
    throw new QueryError(
      part,
      `orders groups by count, sum, min, max, avg or a groupBy field, not "${String(path)}"`,
    );
  });
  return { where, orderBy, groups, named };
}

function fieldList(value: string | string[], part: string): string[] {
  const list = typeof value === "string" ? [value] : value;
  if (list.length === 0) throw new QueryError(part, 'names at least one field, like ["state"]');
  if (list.length > MAX_FIELDS) throw new QueryError(part, `names at most ${MAX_FIELDS} fields`);
  return list;
}

function orderKeys(orderBy: unknown, field: (path: string, part: string) => FieldPath): OrderKey[] {
  if (orderBy === undefined) return [];
  if (!isObject(orderBy) || Array.isArray(orderBy))
    throw new QueryError("orderBy", 'takes an object of fields and directions, like {"updatedAt":-1}');
  const keys = Object.keys(orderBy);
  if (keys.length === 0 || keys.length > MAX_ORDER_KEYS)
    throw new QueryError("orderBy", `names 1 to ${MAX_ORDER_KEYS} fields, like {"updatedAt":-1}`);
  return keys.map((path) => {
    const part = `orderBy.${path}`;
    const direction = orderBy[path];
    if (direction !== 1 && direction !== -1)
      throw new QueryError(part, "takes 1 (ascending) or -1 (descending)");
    return { field: field(path, part), direction };
  });
}
