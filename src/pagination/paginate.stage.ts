// Over 300 lines: the paginate stage and the helpers only it uses (a page's cursor state, a stream chunk's
// description and text); each helper is short, and splitting them out would only export them for one caller.
import type { Clock } from "../clock/clock.js";
import { fieldOf, itemAt } from "../common/guards.js";
import type { PageLink } from "../metadata/definitions.js";
import type { CapabilityOperation, CapabilityStageFunction } from "../pipeline/capability.js";
import { type Invocation, invocationOf, type Stage } from "../pipeline/invocation.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import { jsonReplacer } from "../results/shape-tool-result.js";
import { toolError } from "../results/tool-error.js";
import { progressState } from "./adaptive-pages.js";
import { aggregateAnswer, aggregateLimits } from "./aggregate-walk.js";
import { type CollectedRows, rowsFromArray, rowsFromIterable, rowsFromTrustedArray } from "./collect-rows.js";
import type { KeyValue } from "./cursor-values.js";
import { isIterable, pushedDown, withTotal } from "./handler-value.js";
import { Page, type PageDescriber } from "./page.js";
import { AGGREGATE, PAGE_READ } from "./page-context.js";
import { PAGE_REQUEST, type PageRequest } from "./page-request.js";
import type { PaginationSpec } from "./pagination-spec.js";
import type { PaginationStageDeps } from "./pagination-stage-deps.js";
import { sizeOnly } from "./size-only.js";
import type { KeySpec } from "./stable-key.js";
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
  /** The page of `rows`: fields selected, held to `maxBytes`, its stream range described, links or lines made. */
  const pageOf = (
    invocation: Invocation,
    request: PageRequest,
    rows: CollectedRows,
    total: number | undefined,
  ): Page => {
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
    if (maxBytes !== undefined) {
      const fit = prefixWithin(items, maxBytes);
      if (fit < items.length) {
        items = items.slice(0, fit);
        keys = keys.slice(0, fit);
        hasMore = true;
      }
    }
    const makeCursor = (key: Record<string, KeyValue>, returned: number) =>
      cursors.encode(key, request.binding, cursorState(spec, request, returned));
    const cutShort = rows.cutShort === true;
    const chunk = spec.stream ? describeChunk(spec, request, cutShort) : undefined;
    // A tail of sequence numbers has no `until` to poll on from: its last item is where it ended.
    const describe: PageDescriber | undefined =
      chunk && request.newest !== undefined && request.window?.until === null
        ? (keys, more) => {
            const described = chunk(keys, more);
            return more || described.last === null ? described : { ...described, nextSince: described.last };
          }
        : chunk;
    if (request.tail !== undefined && !hasMore && request.window?.until != null) {
      // The window is done: a poll from this chunk's nextSince goes on with this walk. (A
      // budget that shrinks the chunk takes its nextSince away; the chunk that ends the
      // window then tells this again, with its own count.)
      const last = keys[keys.length - 1]?.[itemAt(spec.stableKey, 0)] ?? null;
      const pagesBefore = (request.progress?.pagesBefore ?? 0) + 1;
      tails.handedOut(request.tail, chunkEnd(spec, request, cutShort, last), {
        pagesBefore,
        lastCount: items.length,
      });
    }
    // A link is made from the item as the handler returned it (its URI may need fields a selection leaves out).
    const link = spec.link;
    const links = link
      ? rows.items.slice(0, items.length).map((item) => checkedLink(link, item, where))
      : undefined;
    // A line too, so it may show what a selection of fields leaves out of the items.
    const line = spec.line;
    const lines = line
      ? rows.items.slice(0, items.length).map((item) => checkedLine(line, item, where))
      : undefined;
    const textLeavesOut = chunk
      ? chunkTextLeavesOut(describe ?? chunk, spec, request, links === undefined)
      : undefined;
    return new Page(links ?? items, keys, hasMore, makeCursor, {
      ...(describe ? { describe } : {}),
      ...(textLeavesOut ? { textLeavesOut } : {}),
      ...(total === undefined ? {} : { total }),
      ...(links ? { links: true } : {}),
      ...(lines ? { lines } : {}),
    });
  };
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
      return pageOf(invocation, { ...request, window: read.window }, read.rows, undefined);
    }
    const returned = await next();
    // A handler that answers with an isError result (e.g. `toolError("unknown site")`) is not paged.
    if (isErrorResult(returned)) return returned;
    const { value, total } = withTotal(returned, where);
    if (request.limit === 0 && invocation.definition.kind === "tool") {
      const json = invocation.definition.text === "json";
      const pageRead = PAGE_READ.find(invocation) === true;
      const offered = spec.aggregate !== false;
      return sizeOnly(
        { value, total, pageRead, window: request.window, aggregateOffered: offered, json },
        keySpec,
      );
    }
    let rows: CollectedRows;
    if (Array.isArray(value)) {
      rows = pushedDown(value, request, keySpec, PAGE_READ.find(invocation) === true)
        ? rowsFromTrustedArray(value, request, keySpec)
        : rowsFromArray(value, request, keySpec);
    } else if (isIterable(value)) {
      rows = await rowsFromIterable(value, request, keySpec, readDeadline(spec, request, clock));
    } else {
      throw new Error(
        `${where} is @Paginated, so it must return an array or an (async) iterable of items, not ${value === null ? "null" : typeof value}`,
      );
    }
    return pageOf(invocation, request, rows, total);
  };
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

/**
 * Stream chunks say which range the walk covers and which part this chunk holds. When the
 * range is done, `nextSince` says where a live tail goes on: the window's end, or, for a
 * read that gave up at its deadline, where it really got to (the last item read, else
 * `since`), so an item the source yields late, stamped within the window but after the
 * last one read, is still seen by the next poll.
 *
 * Late items: polling with `since = nextSince` delivers each item once, provided the
 * source can yield it when the chunk covering its stamp is read (for a live source: by
 * the window's end plus `graceMs`). The window ends `settleMs` behind the clock (see
 * `resolveWindow`), so an item stamped in the millisecond of the read, after the
 * handler's snapshot, falls in the next poll. An item that shows up later still, stamped
 * at or before the `nextSince` already handed out (or with the same stamp as the last
 * item read), sorts before the next poll's range and is not delivered: stamp items when
 * they become readable, raise `settleMs` to the longest delay, or walk a sequence number
 * (`stream: {}`) when late writers are expected.
 */
function describeChunk(spec: PaginationSpec, request: PageRequest, cutShort: boolean): PageDescriber {
  const field = itemAt(spec.stableKey, 0);
  const since = request.window?.since ?? null;
  const until = request.window?.until ?? null;
  return (keys, hasMore) => {
    const last = keys[keys.length - 1]?.[field] ?? null;
    return {
      since,
      until,
      first: keys[0]?.[field] ?? null,
      last,
      ...(hasMore || until === null ? {} : { nextSince: chunkEnd(spec, request, cutShort, last) }),
    };
  };
}

/**
 * What a chunk's text leaves out: `first` and `last` when its items show them (each item
 * carries the key's first field, or reads as the `line` the app made of it), and `until`
 * when `nextSince` says the same instant. `structuredContent` keeps them all.
 */
function chunkTextLeavesOut(
  describe: PageDescriber,
  spec: PaginationSpec,
  request: PageRequest,
  itemsInText: boolean,
): (keys: ReadonlyArray<Record<string, KeyValue>>, hasMore: boolean) => readonly string[] {
  const field = itemAt(spec.stableKey, 0);
  const itemsShowKey =
    itemsInText && (spec.line !== undefined || !request.fields || request.fields.includes(field));
  return (keys, hasMore) => {
    const described = describe(keys, hasMore);
    const out = itemsShowKey ? ["first", "last"] : [];
    if (described.nextSince !== undefined && sameInstant(described.nextSince, described.until))
      out.push("until");
    return out;
  };
}

function sameInstant(a: unknown, b: unknown): boolean {
  const at = (value: unknown) => (value instanceof Date ? value.getTime() : value);
  return a !== null && b !== null && at(a) === at(b);
}

/** Where a chunk that ends its window really ended (its `nextSince`): see `describeChunk`. */
function chunkEnd(spec: PaginationSpec, request: PageRequest, cutShort: boolean, last: KeyValue): KeyValue {
  const since = request.window?.since ?? null;
  if (!cutShort) return request.window?.until ?? null;
  return spec.order === "asc" ? (last ?? since) : since;
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

/** A line made by `line(item)`, checked: a page's text must be text. */
function checkedLine(line: (item: unknown) => unknown, item: unknown, where: string): string {
  const made = line(item);
  if (typeof made !== "string") {
    throw new Error(`${where}: @Paginated's line(item) must return a string, not ${describeValue(made)}`);
  }
  return made;
}

function describeValue(value: unknown): string {
  if (value === null || typeof value !== "object")
    return typeof value === "string" ? "a string" : String(value);
  return Array.isArray(value) ? "an array" : "an object";
}

/** A link made by `link(item)`, checked: a page of links must hold resource links a client can read. */
function checkedLink(link: (item: unknown) => unknown, item: unknown, where: string): PageLink {
  const made = link(item);
  if (!isPageLink(made)) {
    throw new Error(
      `${where}: @Paginated's link(item) must return { uri, name } with non-empty strings, not ${JSON.stringify(made)}`,
    );
  }
  return made;
}

/** True for a value with a non-empty string `uri` and `name`: what a page of links needs of each link. */
function isPageLink(value: unknown): value is PageLink {
  const uri = fieldOf(value, "uri");
  const name = fieldOf(value, "name");
  return typeof uri === "string" && uri !== "" && typeof name === "string" && name !== "";
}
