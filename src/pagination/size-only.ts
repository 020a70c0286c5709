import { withToolText } from "../results/tool-text.js";
import { countInWindow } from "./collect-rows.js";
import type { KeySpec } from "./stable-key.js";
import type { StreamWindow } from "./stream-window.js";

/** What decides a size-only answer: what the handler returned, and whether it read `ctx.page`. */
export interface SizeOnlyCall {
  /** The items the handler returned (`{ items, total }` taken apart). */
  readonly value: unknown;
  /** The `total` of `{ items, total }`, when the handler gave one. */
  readonly total: number | undefined;
  readonly pageRead: boolean;
  readonly window: StreamWindow | undefined;
  /** The tool offers `aggregate`, which can count what the handler does not. */
  readonly aggregateOffered: boolean;
  /** The tool's text is JSON (`text: "json"`): no text of its own. */
  readonly json: boolean;
}

/**
 * The answer of `limit: 0`: `{ total }` when it is known (the handler's `{ items, total }`,
 * or the framework's count of a whole array it orders itself, i.e. from a handler that did
 * not read `ctx.page`), else `{ total: null }` with a text that says how to count. Its text
 * is one short line: the model asked for a number.
 *
 * @example
 * ```ts
 * sizeOnly({ value: [], total: 7_500, pageRead: true, window: undefined, aggregateOffered: true, json: false });
 * // { total: 7500 }, text "total=7500"
 * ```
 */
export function sizeOnly(call: SizeOnlyCall, keySpec: KeySpec): Record<string, unknown> {
  const total =
    call.total ??
    (Array.isArray(call.value) && !call.pageRead
      ? countInWindow(call.value, { after: null, limit: 0, window: call.window }, keySpec)
      : undefined);
  if (total !== undefined) {
    const answer = { total };
    return call.json ? answer : withToolText(answer, `total=${total}`);
  }
  const how = call.aggregateOffered
    ? 'aggregate: {"count": true} counts every item'
    : "page through it to count";
  const answer = { total: null };
  return call.json
    ? answer
    : withToolText(answer, `total unknown: this tool does not count its items; ${how}.`);
}
