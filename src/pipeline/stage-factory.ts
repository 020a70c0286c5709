import type { Stage } from "./invocation.js";
import type { OperationDefinition } from "./operation.js";
import type { StageName } from "./order.js";

/**
 * Builds the stage of one kernel place (`PIPELINE_ORDER`) for one operation at start-up, or
 * returns `undefined` when the operation does not use it (so undecorated operations pay
 * nothing). Each kernel stage exports a function that takes its own dependencies and returns
 * its factory; the app's composition root passes them in. Capabilities bring their stages
 * through the capability API instead (`Capability.stage`, `Capability.stages`).
 *
 * @example
 * ```ts
 * export function validateStage(limits: InputLimits): StageFactory {
 *   return {
 *     name: "validate",
 *     create: (definition) => definition.inputSchema === undefined ? undefined
 *       : async (invocation, next) => { invocation.input = check(invocation.args); return next(); },
 *   };
 * }
 * ```
 */
export interface StageFactory {
  readonly name: StageName;
  create(definition: OperationDefinition): Stage | undefined;
}
