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
 * (`Capability.stage.place`, or one per stage of `Capability.stages`, right after or before
 * another: `@Paginated` "decodeCursor" after "interceptors" and "paginate" after "shape",
 * both `innermost`; `@Cached` "cache" before "shape"; `@Budget` "budget" after "shape";
 * `@Ephemeral` "spill" before "budget"), and `assembleOrder` sets them in, so the order above
 * comes out whatever the registration order. Other capability stages are placed after one
 * of these places (`Capability.stage.after`); several at one place run in the order of
 * their names.
 *
 * A stage that does not apply to an operation (no `@Cached`, no `@Paginated`, …) is left
 * out when the pipeline is composed, so undecorated tools pay nothing for it.
 */
export const PIPELINE_ORDER: readonly KernelStageName[] = ["validate", "interceptors", "shape"];

/** The name of one of the kernel's own places in the order. */
export type KernelStageName = "validate" | "interceptors" | "shape";

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
  /** Inside the other places declared at the same spot, whatever their names (see `CapabilityStage.innermost`). */
  readonly innermost?: boolean | undefined;
}

/**
 * The whole order: `PIPELINE_ORDER` with the places capabilities declare, each set right
 * after (or before) the place it names, with the places set next to it in turn. Places
 * declared at one spot go in the order of their names (`innermost` ones last, inside the
 * others), so the result depends only on the declarations, never on their order. A place
 * whose anchor no one declares is left out (a stage placed there fails when it is built).
 *
 * @example
 * ```ts
 * assembleOrder([{ place: "audit", after: "interceptors" }]);
 * // ["validate", "interceptors", "audit", "shape"]
 * ```
 */
export function assembleOrder(declared: Iterable<PlaceDeclaration>): readonly StageName[] {
  const kernel: readonly StageName[] = PIPELINE_ORDER;
  // One declaration per place (the last one given); a kernel place is never declared again.
  const byPlace = new Map([...declared].filter((d) => !kernel.includes(d.place)).map((d) => [d.place, d]));
  const atSpot = new Map<string, string[]>();
  for (const { place, after, before } of [...byPlace.values()].sort(outerFirst)) {
    const anchor = before ?? after;
    if (anchor === undefined) continue;
    const spot = spotOf(before === undefined ? "after" : "before", anchor);
    atSpot.set(spot, [...(atSpot.get(spot) ?? []), place]);
  }
  const order: StageName[] = [];
  // Each place with what is set right before it and right after it, outermost first: a
  // place set after another comes with everything set next to it, never between them.
  const visit = (place: StageName) => {
    for (const inner of atSpot.get(spotOf("before", place)) ?? []) visit(inner);
    order.push(place);
    for (const inner of atSpot.get(spotOf("after", place)) ?? []) visit(inner);
  };
  for (const place of kernel) visit(place);
  return order;
}

function spotOf(side: "after" | "before", anchor: StageName): string {
  return `${side}:${anchor}`;
}

/** Places at one spot, outermost first: by name, `innermost` ones after the others. */
function outerFirst(a: PlaceDeclaration, b: PlaceDeclaration): number {
  if (Boolean(a.innermost) !== Boolean(b.innermost)) return a.innermost ? 1 : -1;
  return a.place < b.place ? -1 : a.place > b.place ? 1 : 0;
}
