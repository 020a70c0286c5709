import type { PaginationSpec } from "../metadata/specs.js";
import type { Stage } from "../pipeline/invocation.js";
import type { OperationDefinition } from "../pipeline/operation.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { jsonReplacer } from "../results/shape-tool-result.js";
import { type CollectedRows, rowsFromArray, rowsFromIterable, rowsFromTrustedArray } from "./collect-rows.js";
import type { CursorCodec } from "./cursor-codec.js";
import type { KeyValue } from "./cursor-values.js";
import { Page, type PageDescriber } from "./page.js";
import { PAGE_REQUEST, type PageRequest } from "./page-request.js";
import { compareKeys, type KeySpec, keyOf } from "./stable-key.js";

/**
 * Under `@Paginated`: turns what the handler returned (an array, an async iterable, or
 * the `limit + 1` rows it fetched after `ctx.page.after`) into a `Page`, projects the
 * selected fields, bounds stream chunks by size, and makes the `nextCursor` from the last
 * item's key.
 */
export function paginateStage(cursors: CursorCodec): StageFactory {
  return { name: "paginate", create: (definition) => paginatorFor(definition, cursors) };
}

function paginatorFor(definition: OperationDefinition, cursors: CursorCodec): Stage | undefined {
  const spec = definition.pagination;
  if (!spec) return undefined;
  const keySpec: KeySpec = { fields: spec.stableKey, order: spec.order };
  return async (invocation, next) => {
    const value = await next();
    const request = PAGE_REQUEST.get(invocation);
    // A handler that answers with an isError result (e.g. `toolError("unknown site")`) is not paged.
    if (isErrorResult(value)) return value;
    let rows: CollectedRows;
    if (Array.isArray(value)) {
      rows = pushedDown(value, request, keySpec, invocation.pageRead)
        ? rowsFromTrustedArray(value, request, keySpec)
        : rowsFromArray(value, request, keySpec);
    } else if (isIterable(value)) {
      rows = await rowsFromIterable(value, request, keySpec);
    } else {
      throw new Error(
        `${definition.where} is @Paginated, so it must return an array or an (async) iterable of items, not ${value === null ? "null" : typeof value}`,
      );
    }
    let items = request.fields
      ? rows.items.map((item) => pick(item, request.fields as string[]))
      : rows.items;
    let { keys, hasMore } = rows;
    const maxBytes = spec.stream?.maxBytes;
    if (maxBytes !== undefined) {
      const fit = prefixWithin(items, maxBytes);
      if (fit < items.length) {
        items = items.slice(0, fit);
        keys = keys.slice(0, fit);
        hasMore = true;
      }
    }
    const state = request.window ? { s: request.window.since, u: request.window.until } : undefined;
    const makeCursor = (key: Record<string, KeyValue>) => cursors.encode(key, request.binding, state);
    return new Page(items, keys, hasMore, makeCursor, spec.stream ? describeChunk(spec, request) : undefined);
  };
}

/** Stream chunks say which range the walk covers and which part this chunk holds. */
function describeChunk(spec: PaginationSpec, request: PageRequest): PageDescriber {
  const field = spec.stableKey[0] as string;
  const since = request.window?.since ?? null;
  const until = request.window?.until ?? null;
  return (keys, hasMore) => ({
    since,
    until,
    first: keys[0]?.[field] ?? null,
    last: keys[keys.length - 1]?.[field] ?? null,
    // When this range is done, a live tail goes on from its end.
    ...(hasMore || until === null ? {} : { nextSince: until }),
  });
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

/**
 * Whether an array is the page the handler fetched itself after `ctx.page.after`. Reading
 * `ctx.page` is the sign; two checks that need no collation catch a handler that read it
 * but returned everything anyway (more than `limit + 1` rows, or the cursor's own row
 * again), which would otherwise repeat one page forever.
 */
function pushedDown(
  rows: readonly unknown[],
  request: PageRequest,
  keySpec: KeySpec,
  pageWasRead: boolean,
): boolean {
  if (!pageWasRead || rows.length > request.limit + 1) return false;
  if (request.after === null || rows.length === 0) return true;
  return compareKeys(keyOf(rows[0], keySpec, 0), request.after, keySpec) !== 0;
}

function isIterable(value: unknown): value is AsyncIterable<unknown> | Iterable<unknown> {
  if (value === null || typeof value !== "object") return false;
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

function pick(item: unknown, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (item as Record<string, unknown>)[field];
    if (value !== undefined) picked[field] = value;
  }
  return picked;
}
