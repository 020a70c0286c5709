import type { PaginatedOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/**
 * Pages a tool's or resource template's result by a stable, unique key (one field or
 * several), with signed cursors. Adds `cursor` and `limit` inputs (and `fields` when
 * `fields` is given); the result is `{ items, nextCursor, hasMore, count }`.
 *
 * @example
 * ```ts
 * @Tool({ input: { site: z.string() } })
 * @Paginated(["updatedAt", "slug"], { limit: 20, maxLimit: 50 })
 * list({ site }: { site: string }, ctx: ToolContext) {
 *   return this.repo.after(site, ctx.page!.after, ctx.page!.limit + 1);
 * }
 * ```
 */
export function Paginated(
  stableKey: string | readonly string[],
  options: PaginatedOptions = {},
): MethodDecorator {
  const recorded = Object.freeze({
    stableKey: Object.freeze(typeof stableKey === "string" ? [stableKey] : [...stableKey]),
    options: Object.freeze({ ...options }),
  });
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { paginated: recorded });
  };
}
