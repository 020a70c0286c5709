import { copyList, copyOptions } from "../decorators/copy-options.js";
import { defineCapability } from "../decorators/define-capability.js";
import { FrugalConfigError } from "../errors/config-error.js";
import { stageFromApp } from "../pipeline/stage-from-app.js";
import { checkPaginated, type PaginatedRecord } from "./check-pagination-options.js";
import { cursorDecoderFor } from "./decode-cursor.stage.js";
import { paginatorFor } from "./paginate.stage.js";
import type { PaginatedOptions } from "./paginated-options.js";
import { pagedToolOutput, withPaginationInput } from "./pagination-schemas.js";
import type { PaginationSpec } from "./pagination-spec.js";
import { PAGINATION_STAGES } from "./pagination-stage-deps.js";

/**
 * Pages a tool's or resource template's result by a stable, unique key (one field or
 * several), with signed cursors. Adds `cursor` and `limit` inputs (and `fields` when
 * `fields` is given); the result is `{ items, nextCursor, hasMore, count }`. With
 * `adaptive: true`, the pages of a walk that keeps going grow (20, 20, 40, 80, … up to
 * `maxLimit`, within the budget), so reading a whole list takes far fewer calls. Read an
 * operation's resolved options with `specOf(definition, Paginated.capability)`.
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
export const Paginated = defineCapability({
  name: "pagination",
  decorator: "@Paginated",
  options: (stableKey: string | readonly string[], options: PaginatedOptions = {}): PaginatedRecord => ({
    // Anything but a string or an array is recorded as given, for the start-up check to refuse.
    stableKey: typeof stableKey === "string" ? Object.freeze([stableKey]) : copyList(stableKey),
    options: copyOptions(options),
  }),
  resolve: (recorded, target): PaginationSpec => checkPaginated(recorded, target),
  // Tools take numbers and arrays; resource templates take query-string text (their query carries them).
  input: (spec, input, target) =>
    withPaginationInput(target.where, input, spec, target.kind === "resource" ? "resource" : "tool"),
  // Under @Paginated, a tool's `output` describes one item; the result is the page envelope around them.
  envelope: (spec, item) => pagedToolOutput(item, spec),
  // Two places of its own, each inside whatever else is declared at its spot: the cursor is
  // decoded right outside the cache (which keys by the page it asks for), and the handler's
  // rows are paged right next to it (so the budget and the spill see a page).
  stages: [
    {
      place: "decodeCursor",
      after: "interceptors",
      innermost: true,
      create: stageFromApp(PAGINATION_STAGES, cursorDecoderFor),
    },
    {
      place: "paginate",
      after: "shape",
      innermost: true,
      create: stageFromApp(PAGINATION_STAGES, paginatorFor),
    },
  ],
  textFormat(spec, own, target) {
    if (own && spec.text && own !== spec.text) {
      throw new FrugalConfigError(
        target.where,
        `@Tool has \`text: "${own}"\` but @Paginated has \`text: "${spec.text}"\``,
        "set `text` once, on either decorator",
      );
    }
    if (own === "json" && spec.line) {
      throw new FrugalConfigError(
        target.where,
        '@Tool has `text: "json"` but @Paginated has `line`: its text would be either JSON or lines',
        'drop `text: "json"` to answer lines, or drop `line` to answer JSON',
      );
    }
    // A page written as lines keeps them whatever the app says.
    return spec.line ? "auto" : (own ?? spec.text);
  },
});
