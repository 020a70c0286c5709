import type { StageFactory } from "../pipeline/stage-factory.js";
import { isPlainObject } from "../results/shape-tool-result.js";
import { type CollectedRows, rowsFromArray, rowsFromIterable, rowsFromTrustedArray } from "./collect-rows.js";
import { Page } from "./page.js";
import type { KeySpec } from "./stable-key.js";

/**
 * Under `@Paginated`: turns what the handler returned (an array, an async iterable, or
 * the `limit + 1` rows it fetched after `ctx.page.after`) into a `Page`, projects the
 * selected fields, and makes the `nextCursor` from the last item's key.
 */
export const paginateStage: StageFactory = {
  name: "paginate",
  create(definition, env) {
    const spec = definition.pagination;
    if (!spec) return undefined;
    const keySpec: KeySpec = { fields: spec.stableKey, order: spec.order };
    return async (invocation, next) => {
      const value = await next();
      const request = invocation.page;
      if (!request) throw new Error("the decodeCursor stage did not run before paginate");
      // A handler that answers with an isError result (e.g. `toolError("unknown site")`) is not paged.
      if (isPlainObject(value) && value.isError === true) return value;
      let rows: CollectedRows;
      if (Array.isArray(value)) {
        rows = invocation.ctx.pageWasRead
          ? rowsFromTrustedArray(value, request, keySpec)
          : rowsFromArray(value, request, keySpec);
      } else if (isIterable(value)) {
        rows = await rowsFromIterable(value, request, keySpec);
      } else {
        throw new Error(
          `${definition.where} is @Paginated, so it must return an array or an (async) iterable of items, not ${value === null ? "null" : typeof value}`,
        );
      }
      const items = request.fields
        ? rows.items.map((item) => pick(item, request.fields as string[]))
        : rows.items;
      return new Page(items, rows.keys, rows.hasMore, (key) => env.cursors.encode(key, request.binding));
    };
  },
};

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
