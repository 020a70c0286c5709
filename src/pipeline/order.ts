import { itemAt } from "../common/guards.js";

/**
 * The one documented order of a call, from the outside in:
 *
 *   validate → interceptors → invalidate → decodeCursor → cache → shape → spill → budget → paginate → project → (handler)
 *
 * Read left to right it is the order in which stages *start*; results travel back right
 * to left. So the handler's raw value is paginated first, then held to the budget, then
 * spilled if it is still too large, then shaped into a protocol result, which is what the
 * cache stores and what interceptors see. This matches the contract's "validate →
 * interceptors → decode cursor → cache lookup → handler → paginate → budget → spill →
 * shape the result". `project` (`@Project`, never with `@Paginated`, which projects its own
 * items) sits next to the handler, so what is counted and cached is the projection. Interceptors run after validation and before the cache, so they
 * guard cache hits too.
 *
 * The kernel names only its own places here; each capability declares its own
 * (`Capability.stage.place`, right after or before another: `@Cached` "cache" before "shape",
 * `@Budget` "budget" after "shape", `@Ephemeral` "spill" before "budget"), and
 * `assembleOrder` sets them in, so the order above comes out whatever the registration order.
 * Other capability stages are placed after one of these places (`Capability.stage.after`);
 * several at one place run in the order of their names.
 *
 * A stage that does not apply to an operation (no `@Cached`, no `@Paginated`, …) is left
 * out when the pipeline is composed, so undecorated tools pay nothing for it.
 */
export const PIPELINE_ORDER: readonly KernelStageName[] = [
  "validate",
  "interceptors",
  "decodeCursor",
  "shape",
  "paginate",
];

/** The name of one of the kernel's own places in the order. */
export type KernelStageName = "validate" | "interceptors" | "decodeCursor" | "shape" | "paginate";

/**
 * The name of one place in the pipeline's order: a kernel stage's, or one a capability
 * declares (`Capability.stage.place`): what a capability's stage is placed after.
 */
export type StageName = KernelStageName | (string & {});

/** A place a capability adds to the order: right after (or right before) another. */
export interface PlaceDeclaration {
  readonly place: string;
  readonly after?: StageName | undefined;
  readonly before?: StageName | undefined;
}

/**
 * The whole order: `PIPELINE_ORDER` with the places capabilities declare, each set right
 * after (or before) the place it names, those declared at one spot in the order of their
 * names, so the result depends only on the declarations, never on their order. A place
 * whose anchor no one declares is left out (a stage placed there fails when it is built).
 *
 * @example
 * ```ts
 * assembleOrder([{ place: "audit", after: "interceptors" }]);
 * // ["validate", "interceptors", "audit", "decodeCursor", "shape", "paginate"]
 * ```
 */
export function assembleOrder(declared: Iterable<PlaceDeclaration>): readonly StageName[] {
  const order: StageName[] = [...PIPELINE_ORDER];
  const anchorOf = new Map<string, string>();
  let pending = [...new Map([...declared].map((d) => [d.place, d])).values()].sort((a, b) =>
    a.place < b.place ? -1 : a.place > b.place ? 1 : 0,
  );
  for (let placed = true; placed && pending.length > 0; ) {
    placed = false;
    pending = pending.filter((declaration) => {
      const { place, after, before } = declaration;
      const anchor = before ?? after;
      if (anchor === undefined || order.includes(place)) return false;
      let at = order.indexOf(anchor);
      if (at < 0) return true;
      if (before === undefined) {
        // After the anchor and after the places already set right after it (earlier names).
        at += 1;
        while (at < order.length && anchorOf.get(itemAt(order, at)) === `after:${anchor}`) at += 1;
      }
      order.splice(at, 0, place);
      anchorOf.set(place, before === undefined ? `after:${anchor}` : `before:${anchor}`);
      placed = true;
      return false;
    });
  }
  return order;
}
