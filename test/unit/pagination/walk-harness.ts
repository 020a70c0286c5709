import { z } from "zod";
import type { PaginationSpec } from "../../../src/metadata/specs.js";
import type { Invocation } from "../../../src/pipeline/invocation.js";
import type { AggregateRequest, PageContext } from "../../../src/pipeline/tool-context.js";

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
    page: undefined as PageContext | undefined,
    pageRead: false,
    aggregate: options.aggregate,
  } as unknown as Invocation;
  const next = async () => {
    const page = invocation.page as PageContext;
    calls.push(page);
    if (options.readsPage !== false) invocation.pageRead = true;
    return handler(page, invocation.aggregate);
  };
  return { invocation, next, calls };
}

/** The rows of `items` after `page.after` (by `id`), `limit + 1` of them: a keyset query. */
export function keysetPage<T extends { id: number }>(items: readonly T[], page: PageContext): T[] {
  const after = (page.after?.id as number | undefined) ?? 0;
  return items.filter((item) => item.id > after).slice(0, page.limit + 1);
}
