import type { PaginatedOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyList, copyOptions } from "./copy-options.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/**
 * Pages a tool's or resource template's result by a stable, unique key (one field or
 * several), with signed cursors. Adds `cursor` and `limit` inputs (and `fields` when
 * `fields` is given); the result is `{ items, nextCursor, hasMore, count }`. With
 * `adaptive: true`, the pages of a walk that keeps going grow (20, 20, 40, 80, … up to
 * `maxLimit`, within the budget), so reading a whole list takes far fewer calls.
 *
 * @example
 * ```ts
 * @Tool({ input: { site: z.string() } })
 * @Paginated(["updatedAt", "slug"], { limit: 20, maxLimit: 50 })
 * list({ site }: { site: string }, ctx: ToolContext) {
 *   return this.repo.after(site, ctx.page!.after, ctx.page!.limit + 1);
 * }
 *
 * @Tool()
 * @Paginated("id", { limit: 20, maxLimit: 200, adaptive: true })
 * events(_input: unknown, ctx: ToolContext) {
 *   return this.repo.eventsAfter(ctx.page!.after, ctx.page!.limit + 1); // limit is the grown size
 * }
 * ```
 */
export function Paginated(
  stableKey: string | readonly string[],
  options: PaginatedOptions = {},
): MethodDecorator {
  const recorded = Object.freeze({
    // Anything but a string or an array is recorded as given, for the start-up check to refuse.
    stableKey: typeof stableKey === "string" ? Object.freeze([stableKey]) : copyList(stableKey),
    options: copyOptions(options),
  });
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { paginated: recorded });
  };
}
