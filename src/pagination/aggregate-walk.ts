import { QueryError } from "../aggregate/query-errors.js";
import { type FieldPath, fieldPath, hasField } from "../aggregate/query-fields.js";
import { type Group, type GroupSpec, GroupTally, sortGroups } from "../aggregate/query-groups.js";
import { itemAt } from "../common/guards.js";
import type { AggregateBounds } from "../metadata/definitions.js";
import type { Invocation, Next } from "../pipeline/invocation.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import { callTokenLimit } from "../pipeline/token-limit.js";
import type { JsonValue } from "../results/json-value.js";
import { isPlainObject } from "../results/shape-tool-result.js";
import { envelopeLine, withEnvelopeLine, writeTable } from "../results/table-format.js";
import { toolError } from "../results/tool-error.js";
import { toolTextOf, withToolText } from "../results/tool-text.js";
import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { HandlerWalk, type WalkBounds, type WalkEnd } from "./handler-walk.js";
import { AGGREGATE, type AggregateRequest } from "./page-context.js";
import type { PaginationSpec } from "./pagination-spec.js";
import type { KeySpec } from "./stable-key.js";
import type { StreamWindow } from "./stream-window.js";

/** The bounds of one aggregate, resolved: `@Paginated`'s, else the app's, else the defaults. */
export interface AggregateLimits extends WalkBounds {
  readonly maxGroups: number;
}

/** Defaults of an aggregate's bounds (those of `query_resource`'s scans). */
const AGGREGATE_DEFAULTS = { maxScanItems: 100_000, maxScanMs: 2_000, maxGroups: 1_000 };

/** An aggregate's bounds: `@Paginated`'s own, else the app's, else the defaults. */
export function aggregateLimits(spec: PaginationSpec, app: AggregateBounds): AggregateLimits {
  const own = spec.aggregate === false ? {} : spec.aggregate;
  return {
    maxItems: own.maxScanItems ?? app.maxScanItems ?? AGGREGATE_DEFAULTS.maxScanItems,
    maxMs: own.maxScanMs ?? app.maxScanMs ?? AGGREGATE_DEFAULTS.maxScanMs,
    maxGroups: own.maxGroups ?? app.maxGroups ?? AGGREGATE_DEFAULTS.maxGroups,
  };
}

/** A valid aggregate, shown in every refusal. */
const EXAMPLE = '{"groupBy":"labels","sum":"comments","top":10}';

/**
 * Answers a paged tool's `aggregate` input: `{ groups, total, scanned, partial? }`, its text
 * a table of the groups. The handler is called first with `ctx.aggregate` set: one that
 * answers `{ groups, total }` pushed the aggregate down (its groups are checked, ordered
 * and cut as the framework's own would be). Otherwise what it returned is the first page
 * of a walk over every item the input selects, counted into groups by the same code that
 * counts `query_resource`'s, bounded by `limits` (then `partial: true`, and the hint says
 * which inputs narrow it).
 */
export async function aggregateAnswer(
  invocation: Invocation,
  next: Next,
  spec: PaginationSpec,
  keySpec: KeySpec,
  window: StreamWindow | undefined,
  limits: AggregateLimits,
  /** Counts the answer's text, to keep as many groups as the call's token budget holds. */
  counter?: TokenCounter,
): Promise<unknown> {
  const json = invocation.definition.kind === "tool" && invocation.definition.text === "json";
  const limit = callTokenLimit(invocation.definition, invocation.ctx.meta);
  const answer = (value: Answer, hint: string | undefined) => fitted(value, hint, json, counter, limit);
  const request = AGGREGATE.get(invocation);
  let plan: GroupSpec;
  try {
    plan = groupSpecOf(request, spec, limits.maxGroups);
  } catch (error) {
    if (error instanceof QueryError)
      return toolError(`Bad aggregate at ${error.message}. Example: {"aggregate":${EXAMPLE}}`);
    throw error;
  }
  const walk = new HandlerWalk(invocation, next, spec, keySpec, window);
  const first = await walk.call(null);
  if (isErrorResult(first)) return first;
  const pushed = pushedDownGroups(first, invocation.definition.where);
  if (pushed) {
    const counted = sortGroups(pushed.groups, plan);
    const partial = counted.partial ? { partial: true } : {};
    const hint = counted.partial ? tooManyGroups(limits.maxGroups) : undefined;
    return answer({ groups: counted.groups, total: pushed.total, scanned: pushed.total, ...partial }, hint);
  }
  const tally = new GroupTally(plan);
  const named = namedFields(plan);
  const unseen = new Set(named.map((n) => n.field.path));
  let total = 0;
  const end = await walk.read(first, limits, (item) => {
    total++;
    tally.add(item);
    if (unseen.size > 0) for (const { field } of named) if (hasField(item, field)) unseen.delete(field.path);
  });
  if (end.error !== undefined) return end.error;
  // A field no item has is a typo the model can fix; after a cut-short scan it may only be unseen.
  if (end.bound === undefined && total > 0 && unseen.size > 0)
    return toolError(unknownFields(named, unseen, total, spec));
  const counted = tally.groups();
  const partial = counted.partial || end.bound !== undefined;
  return answer(
    { groups: counted.groups, total, scanned: end.scanned, ...(partial ? { partial: true } : {}) },
    scanHint(end, counted.partial, invocation, spec, limits.maxGroups),
  );
}

type Answer = {
  groups: Group[];
  total: number;
  scanned: number;
  partial?: boolean;
};

/** The refusal of fields none of the `total` items has, naming the part of the input that names each. */
function unknownFields(
  named: ReadonlyArray<{ field: FieldPath; part: string }>,
  unseen: ReadonlySet<string>,
  total: number,
  spec: PaginationSpec,
): string {
  const names = named.filter((n) => unseen.has(n.field.path)).map((n) => `"${n.field.path}" (${n.part})`);
  return `Unknown field ${names.join(", ")}: none of the ${total} items has it.${fieldList(spec)} Example: {"aggregate":${EXAMPLE}}`;
}

/**
 * Why a counted answer is partial, as a hint: the bound that stopped the scan (and the
 * inputs that narrow it), else too many groups; undefined for a whole answer.
 */
function scanHint(
  end: WalkEnd,
  tooMany: boolean,
  invocation: Invocation,
  spec: PaginationSpec,
  maxGroups: number,
): string | undefined {
  if (end.bound !== undefined)
    return `The scan stopped ${end.bound} after ${end.scanned} items: counts cover only those. Narrow it with ${narrowingInputs(invocation, spec)}.`;
  return tooMany ? tooManyGroups(maxGroups) : undefined;
}

function tooManyGroups(maxGroups: number): string {
  return `More than ${maxGroups} groups (aggregate.maxGroups): only the largest are kept, and their counts may be low.`;
}

/**
 * The answer with as many groups (the largest) as the token budget holds: a cut answer
 * says `partial` and how to ask for fewer groups. Fitting counts the text the model reads,
 * as the budget does, at O(budget) a probe.
 */
async function fitted(
  value: Answer,
  hint: string | undefined,
  json: boolean,
  counter: TokenCounter | undefined,
  limit: number | undefined,
): Promise<Record<string, unknown>> {
  const whole = answerOf(value, hint, json);
  if (counter === undefined || limit === undefined || value.groups.length === 0) return whole;
  const cut = (n: number) => {
    if (n === value.groups.length) return whole;
    const note = `${n} of ${value.groups.length} groups fit the token budget: ask for fewer with aggregate.top, or narrow the inputs.`;
    const groups = value.groups.slice(0, n);
    return answerOf({ ...value, groups, partial: true }, hint === undefined ? note : `${hint} ${note}`, json);
  };
  const textOf = (n: number) => toolTextOf(cut(n)) ?? JSON.stringify(cut(n));
  const { n } = await fitPrefix(value.groups.length, textOf, limit, counter);
  return cut(n);
}

/** The answer, with its text: the groups as a table, then the envelope fields that say something. */
function answerOf(value: Answer, hint: string | undefined, json: boolean): Record<string, unknown> {
  const full = hint === undefined ? value : { ...value, hint };
  if (json) return full;
  const rows = value.groups.map((group) => {
    const { key, ...measures } = group;
    return { ...key, ...measures } as JsonValue;
  });
  const table = writeTable(rows);
  const body = table ? table.text : JSON.stringify(rows);
  const line = envelopeLine({
    total: value.total,
    // `scanned` says something only when it is not the total.
    scanned: value.scanned === value.total ? undefined : value.scanned,
    partial: value.partial,
    hint,
  });
  return withToolText(full, withEnvelopeLine(body, line));
}

/** The aggregate input checked into what the tally needs; a bad field throws `QueryError` naming it. */
function groupSpecOf(request: AggregateRequest, spec: PaginationSpec, maxGroups: number): GroupSpec {
  const field = (path: unknown, part: string): FieldPath => {
    const checked = fieldPath(path, part);
    const top = itemAt(checked.segments, 0);
    if (spec.fields && !spec.fields.includes(top))
      throw new QueryError(part, `"${checked.path}" is not a field of these items.${fieldList(spec)}`);
    return checked;
  };
  const groupBy = request.groupBy === undefined ? [] : [request.groupBy].flat();
  if (request.groupBy !== undefined && groupBy.length === 0)
    throw new QueryError("groupBy", 'names at least one field, like "state"');
  const measure = (name: "sum" | "min" | "max" | "avg") =>
    request[name] === undefined ? undefined : field(request[name], name);
  return {
    groupBy: groupBy.map((path, i) => field(path, groupBy.length > 1 ? `groupBy.${i}` : "groupBy")),
    sum: measure("sum"),
    min: measure("min"),
    max: measure("max"),
    avg: measure("avg"),
    top: request.top,
    maxGroups,
  };
}

/** Every field the aggregate names, with the part of the input that names it. */
function namedFields(plan: GroupSpec): Array<{ field: FieldPath; part: string }> {
  const named = plan.groupBy.map((field) => ({ field, part: "groupBy" }));
  for (const part of ["sum", "min", "max", "avg"] as const) {
    const field = plan[part];
    if (field) named.push({ field, part });
  }
  return named;
}

function fieldList(spec: PaginationSpec): string {
  return spec.fields ? ` Fields: ${spec.fields.join(", ")}.` : "";
}

/** The inputs that select fewer items: the tool's own, and a stream's range. */
function narrowingInputs(invocation: Invocation, spec: PaginationSpec): string {
  const own = Object.keys(invocation.definition.inputSchema?.shape ?? {}).filter(
    (name) => !PAGING_INPUTS.has(name),
  );
  const names = own.map((name) => `\`${name}\``);
  return names.length > 0 ? names.join(", ") : spec.stream ? "`since` and `until`" : "the tool's inputs";
}

const PAGING_INPUTS = new Set(["cursor", "limit", "fields", "aggregate", "tail"]);

/**
 * `{ groups, total }` from a handler that answered `ctx.aggregate` itself, checked; undefined
 * when it returned a page instead.
 */
function pushedDownGroups(value: unknown, where: string): { groups: Group[]; total: number } | undefined {
  if (!isPlainObject(value) || !("groups" in value) || "items" in value) return undefined;
  const { groups, total } = value;
  const valid =
    Array.isArray(groups) &&
    groups.every(isGroup) &&
    typeof total === "number" &&
    Number.isSafeInteger(total) &&
    total >= 0;
  if (!valid) {
    throw new Error(
      `${where} answered ctx.aggregate with { groups, total } that is not valid: groups must be [{ key: {…}, count }] and total a whole number`,
    );
  }
  return { groups, total };
}

/** True for a group a handler pushed down: `{ key: {…}, count }` with a count of 0 or more. */
function isGroup(g: unknown): g is Group {
  return isPlainObject(g) && isPlainObject(g.key) && typeof g.count === "number" && g.count >= 0;
}
