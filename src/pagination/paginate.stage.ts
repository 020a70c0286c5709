import type { Clock } from "../clock/clock.js";
import { fieldOf, itemAt } from "../common/guards.js";
import type { CapabilityOperation, CapabilityStageFunction } from "../pipeline/capability.js";
import { type Invocation, invocationOf, type Stage } from "../pipeline/invocation.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import { jsonReplacer } from "../results/shape-tool-result.js";
import { toolError } from "../results/tool-error.js";
import { progressState } from "./adaptive-pages.js";
import { aggregateAnswer, aggregateLimits } from "./aggregate-walk.js";
import { chunkDescriber, chunkEnd, chunkTextLeavesOut } from "./chunk-description.js";
import { type CollectedRows, rowsFromArray, rowsFromIterable, rowsFromTrustedArray } from "./collect-rows.js";
import type { CursorCodec } from "./cursor-codec.js";
import type { KeyValue } from "./cursor-values.js";
import { isIterable, pushedDown, withTotal } from "./handler-value.js";
import { itemLines, itemLinks } from "./item-links.js";
import { Page } from "./page.js";
import { AGGREGATE, PAGE_READ } from "./page-context.js";
import { PAGE_REQUEST, type PageRequest } from "./page-request.js";
import type { PaginationSpec } from "./pagination-spec.js";
import type { PaginationStageDeps } from "./pagination-stage-deps.js";
import { sizeOnly } from "./size-only.js";
import type { KeySpec } from "./stable-key.js";
import type { TailKey, TailPolls } from "./tail-polls.js";
import { readTail } from "./tail-read.js";

/**
 * Under `@Paginated`: turns what the handler returned (an array, an async iterable, or
 * the `limit + 1` rows it fetched after `ctx.page.after`) into a `Page`, projects the
 * selected fields, bounds stream chunks by size, and makes the `nextCursor` from the last
 * item's key. Under a time window, an async iterable is read until the window's end (by
 * the app's clock) plus `stream.graceMs`, on a real timer, and a chunk that ends the
 * window tells `tails` where (its `nextSince`), so a poll from there goes on with the walk.
 *
 * Three answers are not one page: `limit: 0` answers the total alone (`sizeOnly`); a
 * stream's `tail: N` reads windows back until it has the newest N (`readTail`), then
 * answers them as a page; an `aggregate` input is answered with groups, pushed down by the
 * handler or counted over a walk of its pages (`aggregateAnswer`). The last two call the
 * handler once per page they read.
 */
export function paginatorFor(
  spec: PaginationSpec,
  operation: CapabilityOperation,
  deps: PaginationStageDeps,
): CapabilityStageFunction {
  const stage = paginator(spec, operation, deps);
  return (call, next) => stage(invocationOf(call), next);
}

function paginator(
  spec: PaginationSpec,
  { kind, where }: CapabilityOperation,
  { cursors, clock, tails, aggregate: appBounds = {}, counter }: PaginationStageDeps,
): Stage {
  const keySpec: KeySpec = { fields: spec.stableKey, order: spec.order };
  const limits = aggregateLimits(spec, appBounds);
  const maker: PageMaker = { spec, where, cursors, tails };
  return async (invocation, next) => {
    const request = PAGE_REQUEST.get(invocation);
    if (AGGREGATE.find(invocation) !== undefined && kind === "tool")
      return aggregateAnswer(invocation, next, spec, keySpec, request.window, limits, counter);
    if (request.newest !== undefined && request.window) {
      const waitMs = readDeadline(spec, request, clock);
      const read = await readTail(
        invocation,
        next,
        spec,
        keySpec,
        request.window,
        request.newest,
        limits,
        waitMs,
      );
      if ("error" in read) return read.error;
      if ("tooLarge" in read) {
        return toolError(
          `tail: the stream holds more items than one scan reads, ${read.tooLarge}. Ask for a shorter range: pass an earlier until, or page it with since and until.`,
        );
      }
      return pageOf(maker, invocation, { ...request, window: read.window }, read.rows, undefined);
    }
    const returned = await next();
    // A handler that answers with an isError result (e.g. `toolError("unknown site")`) is not paged.
    if (isErrorResult(returned)) return returned;
    const handed = withTotal(returned, where);
    if (request.limit === 0 && invocation.definition.kind === "tool") {
      const json = invocation.definition.text === "json";
      return totalAlone(invocation, json, spec, request, keySpec, handed);
    }
    const { value, total } = handed;
    let rows: CollectedRows;
    if (Array.isArray(value)) rows = arrayRows(invocation, request, keySpec, value);
    else if (isIterable(value))
      rows = await rowsFromIterable(value, request, keySpec, readDeadline(spec, request, clock));
    else throw notPageable(where, value);
    return pageOf(maker, invocation, request, rows, total);
  };
}

/** What making one operation's pages needs, fixed when the operation is built (not per call). */
interface PageMaker {
  readonly spec: PaginationSpec;
  readonly where: string;
  readonly cursors: CursorCodec;
  readonly tails: TailPolls;
}

/** The page of `rows`: fields selected, held to `maxBytes`, its stream range described, links or lines made. */
function pageOf(
  { spec, where, cursors, tails }: PageMaker,
  invocation: Invocation,
  request: PageRequest,
  rows: CollectedRows,
  total: number | undefined,
): Page {
  const { fields } = request;
  let items = fields ? rows.items.map((item) => pick(item, fields)) : rows.items;
  let { keys, hasMore } = rows;
  if (rows.cutShort) {
    // What a live source had yielded by the deadline: another read may find more.
    invocation.outcome.keepable = false;
    // A descending walk that gave up goes on from its last item, through the cursor.
    if (spec.order === "desc" && keys.length > 0) hasMore = true;
  }
  const maxBytes = spec.stream?.maxBytes;
  const fit = maxBytes === undefined ? items.length : prefixWithin(items, maxBytes);
  if (fit < items.length) {
    items = items.slice(0, fit);
    keys = keys.slice(0, fit);
    hasMore = true;
  }
  const makeCursor = (key: Record<string, KeyValue>, returned: number) =>
    cursors.encode(key, request.binding, cursorState(spec, request, returned));
  const cutShort = rows.cutShort === true;
  const describe = spec.stream ? chunkDescriber(spec, request, cutShort) : undefined;
  if (request.tail !== undefined && !hasMore && request.window?.until != null)
    tailWindowDone(tails, spec, request, request.tail, keys, items.length, cutShort);
  // Links and lines are made from the items as the handler returned them: a link's URI, or a
  // line, may need fields a selection leaves out.
  const links = spec.link ? itemLinks(spec.link, rows.items, items.length, where) : undefined;
  const lines = spec.line ? itemLines(spec.line, rows.items, items.length, where) : undefined;
  const textLeavesOut = describe
    ? chunkTextLeavesOut(describe, spec, request, links === undefined)
    : undefined;
  return new Page(links ?? items, keys, hasMore, makeCursor, {
    ...(describe ? { describe } : {}),
    ...(textLeavesOut ? { textLeavesOut } : {}),
    ...(total === undefined ? {} : { total }),
    ...(links ? { links: true } : {}),
    ...(lines ? { lines } : {}),
  });
}

/**
 * A tail's window is done: a poll from this chunk's nextSince goes on with this walk. (A
 * budget that shrinks the chunk takes its nextSince away; the chunk that ends the window
 * then tells this again, with its own count.)
 */
function tailWindowDone(
  tails: TailPolls,
  spec: PaginationSpec,
  request: PageRequest,
  tail: TailKey,
  keys: readonly Record<string, KeyValue>[],
  count: number,
  cutShort: boolean,
): void {
  const last = keys[keys.length - 1]?.[itemAt(spec.stableKey, 0)] ?? null;
  const pagesBefore = (request.progress?.pagesBefore ?? 0) + 1;
  tails.handedOut(tail, chunkEnd(spec, request, cutShort, last), { pagesBefore, lastCount: count });
}

/** `limit: 0` on a tool (whose text is `json` or not): the walk's total alone, and what else the tool offers. */
function totalAlone(
  invocation: Invocation,
  json: boolean,
  spec: PaginationSpec,
  request: PageRequest,
  keySpec: KeySpec,
  { value, total }: { value: unknown; total: number | undefined },
) {
  const pageRead = PAGE_READ.find(invocation) === true;
  const offered = spec.aggregate !== false;
  return sizeOnly(
    { value, total, pageRead, window: request.window, aggregateOffered: offered, json },
    keySpec,
  );
}

/** The rows of an array: trusted as the page when the handler fetched it itself (`pushedDown`), else sorted and windowed here. */
function arrayRows(
  invocation: Invocation,
  request: PageRequest,
  keySpec: KeySpec,
  value: unknown[],
): CollectedRows {
  return pushedDown(value, request, keySpec, PAGE_READ.find(invocation) === true)
    ? rowsFromTrustedArray(value, request, keySpec)
    : rowsFromArray(value, request, keySpec);
}

function notPageable(where: string, value: unknown): Error {
  return new Error(
    `${where} is @Paginated, so it must return an array or an (async) iterable of items, not ${value === null ? "null" : typeof value}`,
  );
}

/**
 * What a next cursor carries besides the key: a stream's range, and an adaptive walk's
 * progress counted from what the page really returned (the budget may have shrunk it
 * after this stage, through `prefix`). Undefined when there is nothing to carry, so a
 * plain cursor stays as short as it was.
 */
function cursorState(
  spec: PaginationSpec,
  request: PageRequest,
  returned: number,
): Record<string, unknown> | undefined {
  const window = request.window ? { s: request.window.since, u: request.window.until } : {};
  const progress = request.progress
    ? progressState({ pagesBefore: request.progress.pagesBefore + 1, lastCount: returned }, spec.limit)
    : {};
  const state = { ...window, ...progress };
  return Object.keys(state).length > 0 ? state : undefined;
}

/**
 * How long (real milliseconds) a read of a time window may wait on an async iterable:
 * until the window's end by the app's clock (never in the future since `until` is capped
 * at now, so usually nothing) plus `stream.graceMs`. Undefined (no deadline) without a
 * time window.
 */
function readDeadline(spec: PaginationSpec, request: PageRequest, clock: Clock): number | undefined {
  const until = request.window?.until ?? null;
  if (spec.stream?.window === undefined || until === null) return undefined;
  const end = until instanceof Date ? until.getTime() : until;
  return Math.max(0, end - clock.now()) + spec.stream.graceMs;
}

/** How many leading items fit in `maxBytes` of JSON; at least one, so a walk always advances. */
function prefixWithin(items: readonly unknown[], maxBytes: number): number {
  let total = 2;
  for (let i = 0; i < items.length; i++) {
    total += Buffer.byteLength(JSON.stringify(items[i], jsonReplacer) ?? "null") + (i > 0 ? 1 : 0);
    if (total > maxBytes) return Math.max(1, i);
  }
  return items.length;
}

function pick(item: unknown, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    const value = fieldOf(item, field);
    if (value !== undefined) picked[field] = value;
  }
  return picked;
}
