import { itemAt } from "../common/guards.js";
import type { KeyValue } from "./cursor-values.js";
import type { PageDescriber } from "./page.js";
import type { PageRequest } from "./page-request.js";
import type { PaginationSpec } from "./pagination-spec.js";

/**
 * How a stream chunk describes itself (`describeChunk`); a tail of sequence numbers has no
 * `until` to poll on from, so there its last item is where it ended (its `nextSince`).
 *
 * @example
 * ```ts
 * const describe = chunkDescriber(spec, request, false);
 * describe(keys, false); // { since, until, first, last, nextSince }
 * ```
 */
export function chunkDescriber(spec: PaginationSpec, request: PageRequest, cutShort: boolean): PageDescriber {
  const chunk = describeChunk(spec, request, cutShort);
  if (request.newest === undefined || request.window?.until !== null) return chunk;
  return (keys, more) => {
    const described = chunk(keys, more);
    return more || described.last === null ? described : { ...described, nextSince: described.last };
  };
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
 *
 * @example
 * ```ts
 * chunkTextLeavesOut(describe, spec, request, true)(keys, false); // ["first", "last"]
 * ```
 */
export function chunkTextLeavesOut(
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

/**
 * Where a chunk that ends its window really ended (its `nextSince`): see `describeChunk`.
 *
 * @example
 * ```ts
 * chunkEnd(spec, request, false, last); // the window's `until`
 * ```
 */
export function chunkEnd(
  spec: PaginationSpec,
  request: PageRequest,
  cutShort: boolean,
  last: KeyValue,
): KeyValue {
  const since = request.window?.since ?? null;
  if (!cutShort) return request.window?.until ?? null;
  return spec.order === "asc" ? (last ?? since) : since;
}
