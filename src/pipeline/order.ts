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
 * guard cache hits too. Capabilities (built in or the user's) place their stages after one
 * of these (`Capability.stage.after`); several at one place run in the order of their names.
 * A place may be held by a capability rather than a built-in stage (`Capability.stage.at`:
 * `@Cached` holds `"cache"`), so stages placed after it still run inside it.
 *
 * A stage that does not apply to an operation (no `@Cached`, no `@Paginated`, …) is left
 * out when the pipeline is composed, so undecorated tools pay nothing for it.
 */
export const PIPELINE_ORDER: readonly StageName[] = [
  "validate",
  "interceptors",
  "decodeCursor",
  "cache",
  "shape",
  "spill",
  "budget",
  "paginate",
];

/** The name of one built-in pipeline stage: what a capability's stage is placed after. */
export type StageName =
  | "validate"
  | "interceptors"
  | "decodeCursor"
  | "cache"
  | "shape"
  | "spill"
  | "budget"
  | "paginate";
