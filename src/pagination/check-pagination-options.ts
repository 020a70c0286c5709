import { aggregateBounds } from "../builder/aggregate-input.js";
import { describe, OptionChecker, TEXT_FORMATS } from "../builder/check-options.js";
import type { StreamChunkOptions, TextFormat } from "../metadata/definitions.js";
import type { CapabilityTarget } from "../pipeline/capability.js";
import type { PaginatedOptions } from "./paginated-options.js";
import type { PaginationSpec, StreamChunkSpec } from "./pagination-spec.js";

/** What `@Paginated` records: its stable key (one field or more) and its options. */
export interface PaginatedRecord {
  readonly stableKey: readonly string[];
  readonly options: PaginatedOptions | undefined;
}

/**
 * `@Paginated` on an operation, checked: a tool or a resource (a prompt is refused), and on a
 * resource none of the options that shape a tool's text.
 */
export function checkPaginated(recorded: PaginatedRecord, target: CapabilityTarget): PaginationSpec {
  if (target.kind === "prompt")
    target.fail("does not apply to prompts", "remove @Paginated, or make this a tool");
  const spec = resolvePaginationSpec(target.where, recorded.stableKey, recorded.options);
  if (target.kind !== "resource") return spec;
  if (spec.as === "links") {
    target.fail(
      '`as: "links"` applies to tools only (a resource read answers contents, not links)',
      "remove `as` and `link`, or make this method a @Tool",
    );
  }
  if (spec.line || spec.text) {
    target.fail(
      `\`${spec.line ? "line" : "text"}\` applies to tools only (a resource read answers the envelope as minified JSON)`,
      `remove \`${spec.line ? "line" : "text"}\`, or make this method a @Tool`,
    );
  }
  return spec;
}

/**
 * Fills defaults and checks the options, naming `where` in any error. Start-up reports the
 * first bad option, so the order of the checks below is the order of its errors.
 */
export function resolvePaginationSpec(
  where: string,
  stableKey: readonly string[],
  declared: PaginatedOptions | undefined,
): PaginationSpec {
  const check = new OptionChecker(where, "@Paginated");
  checkStableKey(check, stableKey);
  const options = check.knownKeys(declared, PAGINATED_OPTIONS) as PaginatedOptions;
  const { limit, maxLimit } = pageLimits(check, options);
  const order =
    options.order === undefined ? "asc" : check.oneOf("`order`", options.order, ["asc", "desc"] as const);
  const { fields, defaultFields } = selectableFields(check, options);
  const stream = streamOptions(check, options.stream);
  const as = answerShape(check, options);
  const adaptive = checkAdaptive(check, options.adaptive, limit, maxLimit, options.maxLimit !== undefined);
  const text = options.text === undefined ? undefined : check.oneOf("`text`", options.text, TEXT_FORMATS);
  checkLine(check, options.line, as, text);
  return {
    stableKey: [...stableKey],
    limit,
    maxLimit,
    order,
    fields,
    defaultFields,
    as,
    link: options.link,
    stream: stream && streamSpec(check, stream as StreamChunkOptions),
    adaptive,
    text,
    line: options.line,
    aggregate: aggregateBounds(check, options.aggregate),
  };
}

function checkStableKey(check: OptionChecker, stableKey: readonly string[]): void {
  const keyFix = 'pass a unique field, e.g. @Paginated("id") or @Paginated(["updatedAt", "slug"])';
  if (!Array.isArray(stableKey) || stableKey.length === 0) {
    check.fail(`needs a stable key of one field or more, not ${describe(stableKey)}`, keyFix);
  }
  const badKey = stableKey.find((f) => typeof f !== "string" || f === "");
  if (badKey !== undefined) {
    check.fail(`needs non-empty field names in its stable key, not ${describe(badKey)}`, keyFix);
  }
}

/** `limit` (20 unless given) and `maxLimit` (at least 100 unless given), which may not be below it. */
function pageLimits(check: OptionChecker, options: PaginatedOptions): { limit: number; maxLimit: number } {
  const limit =
    options.limit === undefined ? 20 : check.positiveInteger("`limit`", options.limit, "limit: 20");
  const maxLimit =
    options.maxLimit === undefined
      ? Math.max(100, limit)
      : check.positiveInteger("`maxLimit`", options.maxLimit, "maxLimit: 100");
  if (maxLimit < limit) {
    check.fail(
      `\`maxLimit\` (${maxLimit}) is below \`limit\` (${limit})`,
      `raise \`maxLimit\` to ${limit} or more, or lower \`limit\``,
    );
  }
  return { limit, maxLimit };
}

/** `fields` a client may select, and `defaultFields`, which must be among them. */
function selectableFields(
  check: OptionChecker,
  options: PaginatedOptions,
): { fields: string[] | undefined; defaultFields: string[] | undefined } {
  const fields = fieldList(check, "`fields`", options.fields);
  if (fields?.length === 0)
    check.fail("`fields` is empty", "list the fields a client may select, or drop the option");
  const defaultFields = fieldList(check, "`defaultFields`", options.defaultFields);
  if (defaultFields && !fields) {
    check.fail(
      "has `defaultFields` without `fields`",
      "add `fields`, listing the fields a client may select",
    );
  }
  const unknown = defaultFields?.find((f) => !fields?.includes(f));
  if (unknown !== undefined) {
    check.fail(
      `\`defaultFields\` names "${unknown}", which is not in \`fields\``,
      `add "${unknown}" to \`fields\`, or remove it from \`defaultFields\``,
    );
  }
  return { fields, defaultFields };
}

/**
 * `stream`'s keys, and its `window` and `maxBytes`. Its timings are checked apart
 * (`streamSpec`, as the spec is made), after `line`: the order of start-up's errors.
 */
function streamOptions(check: OptionChecker, value: unknown) {
  const stream = value === undefined ? undefined : check.knownKeys(value, STREAM_OPTIONS, "`stream`");
  for (const name of ["window", "maxBytes"] as const) {
    const size = stream?.[name];
    if (size !== undefined && (typeof size !== "number" || !Number.isSafeInteger(size) || size <= 0)) {
      check.fail(
        `\`stream.${name}\` must be a positive whole number, not ${describe(size)}`,
        `e.g. stream: { ${name}: ${name === "window" ? "60_000" : "65_536"} }`,
      );
    }
  }
  return stream;
}

/** `as`: pages of the items, or of links to them, each made by the `link` function that needs. */
function answerShape(check: OptionChecker, options: PaginatedOptions): "items" | "links" {
  const as =
    options.as === undefined ? "items" : check.oneOf("`as`", options.as, ["items", "links"] as const);
  if (as === "links" && typeof options.link !== "function") {
    check.fail(
      `\`as: "links"\` needs a \`link\` function, not ${describe(options.link)}`,
      "e.g. link: (item) => ({ uri: item.url, name: item.title })",
    );
  }
  if (as === "items" && options.link !== undefined) {
    check.fail('has `link` without `as: "links"`', 'add as: "links", or drop `link`');
  }
  return as;
}

/** `line`: a function, for pages whose text is lines of items (neither links nor JSON). */
function checkLine(
  check: OptionChecker,
  line: unknown,
  as: "items" | "links",
  text: TextFormat | undefined,
): void {
  if (line !== undefined && typeof line !== "function") {
    check.fail(
      `\`line\` must be a function of an item returning its line of text, not ${describe(line)}`,
      'e.g. line: (entry) => entry.at + " " + entry.message',
    );
  }
  if (line && as === "links") {
    check.fail(
      'has both `line` and `as: "links"`: a page of links has no items in its text',
      'drop `line`, or drop `as: "links"` and `link`',
    );
  }
  if (line && text === "json") {
    check.fail(
      'has both `line` and `text: "json"`: its text would be either lines or JSON',
      'drop `text: "json"` to answer lines, or drop `line` to answer JSON',
    );
  }
}

/** `adaptive`: a boolean, and room to grow (`maxLimit` above `limit`) when true. */
function checkAdaptive(
  check: OptionChecker,
  value: unknown,
  limit: number,
  maxLimit: number,
  maxLimitGiven: boolean,
): boolean {
  const adaptive = check.optionalBoolean(
    "`adaptive`",
    value,
    "use adaptive: true to grow the pages of a long walk, or drop the option for fixed pages",
  );
  if (adaptive && maxLimit <= limit) {
    check.fail(
      `\`adaptive: true\` needs \`maxLimit\` above \`limit\` for pages to grow, but ${maxLimitGiven ? `\`maxLimit\` is ${maxLimit}` : `\`maxLimit\` defaults to ${maxLimit}`} and \`limit\` is ${limit}`,
      `raise \`maxLimit\` (e.g. maxLimit: ${Math.max(100, limit * 4)}), or drop \`adaptive\``,
    );
  }
  return adaptive ?? false;
}

/** How long a read of a live source may wait past its window's end, unless `stream.graceMs` says. */
const DEFAULT_STREAM_GRACE_MS = 250;

/**
 * How far a time window stays behind the clock, unless `stream.settleMs` says: one
 * millisecond, so a window never ends in the millisecond its read starts, the one a writer
 * may still be stamping lines in after the handler's snapshot (issue 23).
 */
const DEFAULT_STREAM_SETTLE_MS = 1;

/**
 * `stream`, with `graceMs` and `settleMs` checked (whole numbers of milliseconds, 0 or
 * more; only with `window`) and their defaults filled in.
 */
function streamSpec(check: OptionChecker, stream: StreamChunkOptions): StreamChunkSpec {
  const graceMs =
    stream.graceMs === undefined
      ? DEFAULT_STREAM_GRACE_MS
      : check.nonNegativeInteger("`stream.graceMs`", stream.graceMs, "stream: { graceMs: 250 }");
  if (stream.graceMs !== undefined && stream.window === undefined) {
    check.fail(
      "has `stream.graceMs` without `stream.window`: only a time window's read waits for a live source",
      "add `window` (e.g. stream: { window: 60_000, graceMs }), or drop `graceMs`",
    );
  }
  const settleMs =
    stream.settleMs === undefined
      ? DEFAULT_STREAM_SETTLE_MS
      : check.nonNegativeInteger("`stream.settleMs`", stream.settleMs, "stream: { settleMs: 1_000 }");
  if (stream.settleMs !== undefined && stream.window === undefined) {
    check.fail(
      "has `stream.settleMs` without `stream.window`: only a time window ends behind the clock",
      "add `window` (e.g. stream: { window: 60_000, settleMs }), or drop `settleMs`",
    );
  }
  return { ...stream, graceMs, settleMs };
}

/** Every key of `PaginatedOptions` (the `Record` makes the compiler flag a key added there but not here). */
const PAGINATED_OPTIONS = Object.keys({
  limit: true,
  maxLimit: true,
  order: true,
  fields: true,
  defaultFields: true,
  stream: true,
  as: true,
  link: true,
  adaptive: true,
  text: true,
  line: true,
  aggregate: true,
} satisfies Record<keyof PaginatedOptions, true>);

const STREAM_OPTIONS = Object.keys({
  window: true,
  maxBytes: true,
  graceMs: true,
  settleMs: true,
} satisfies Record<keyof StreamChunkOptions, true>);

/** `fields` and `defaultFields`: arrays of field names (a lone string would be spread into letters). */
function fieldList(check: OptionChecker, name: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  const fix = `e.g. ${name.slice(1, -1)}: ["title", "slug"]`;
  if (!Array.isArray(value))
    check.fail(`${name} must be an array of field names, not ${describe(value)}`, fix);
  const bad = value.find((f) => typeof f !== "string" || f === "");
  if (bad !== undefined) check.fail(`${name} must hold non-empty field names, not ${describe(bad)}`, fix);
  return [...value];
}
