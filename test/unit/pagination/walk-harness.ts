import { z } from "zod";
import {
  AGGREGATE,
  type AggregateRequest,
  PAGE,
  PAGE_READ,
  type PageContext,
} from "../../../src/pagination/page-context.js";
import type { PaginationSpec } from "../../../src/pagination/pagination-spec.js";
import type { Invocation } from "../../../src/pipeline/invocation.js";

/** A paged tool's spec with the defaults `resolvePaginationSpec` fills in, and `overrides`. */
export function specOf(overrides: Partial<PaginationSpec> = {}): PaginationSpec {
  return {
    stableKey: ["id"],
    limit: 10,
    maxLimit: 10,
    order: "asc",
    fields: undefined,
    defaultFields: undefined,
    as: "items",
    link: undefined,
    stream: undefined,
    adaptive: false,
    text: undefined,
    line: undefined,
    aggregate: {},
    ...overrides,
  };
}

/**
 * The part of an invocation the walks read and write (the page, whether the handler read
 * it, the aggregate, the definition's name and input), and a `next` that runs `handler`
 * with the page as `ctx.page` would give it. Each call's page is recorded.
 */
export function walkHarness(
  handler: (page: PageContext, aggregate: AggregateRequest | undefined) => unknown,
  options: { readsPage?: boolean; aggregate?: AggregateRequest; text?: "auto" | "json" } = {},
) {
  const calls: PageContext[] = [];
  const invocation = {
    definition: {
      kind: "tool",
      where: "Issues.list",
      text: options.text ?? "auto",
      inputSchema: z.object({ state: z.string().optional(), cursor: z.string().optional() }),
      capabilities: new Map(),
    },
    ctx: { meta: {} },
    slots: undefined,
  } as unknown as Invocation;
  if (options.aggregate) AGGREGATE.set(invocation, options.aggregate);
  const next = async () => {
    const page = PAGE.get(invocation);
    calls.push(page);
    if (options.readsPage !== false) PAGE_READ.set(invocation, true);
    return handler(page, AGGREGATE.find(invocation));
  };
  return { invocation, next, calls };
}

/** The rows of `items` after `page.after` (by `id`), `limit + 1` of them: a keyset query. */
export function keysetPage<T extends { id: number }>(items: readonly T[], page: PageContext): T[] {
  const after = (page.after?.id as number | undefined) ?? 0;
  return items.filter((item) => item.id > after).slice(0, page.limit + 1);
}
