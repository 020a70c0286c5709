import type { Stage } from "./invocation.js";
import type { OperationDefinition } from "./operation.js";
import type { StageName } from "./order.js";

/**
 * Builds the stage of one capability for one operation at start-up, or returns
 * `undefined` when the operation does not use it (so undecorated operations pay nothing).
 * A capability exports a function that takes its own dependencies and returns its
 * factory; the app's composition root passes them in.
 *
 * @example
 * ```ts
 * export function invalidateStage(bus: EventBus): StageFactory {
 *   return {
 *     name: "invalidate",
 *     create: (definition) => definition.invalidates.length === 0 ? undefined
 *       : async (invocation, next) => { const result = await next(); … return result; },
 *   };
 * }
 * ```
 */
export interface StageFactory {
  readonly name: StageName;
  create(definition: OperationDefinition): Stage | undefined;
}
