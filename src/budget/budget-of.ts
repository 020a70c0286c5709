import type { OperationDefinition } from "../builder/definitions.js";

/** The `_meta` key through which a client lowers the budget of one call. */
export const MAX_TOKENS_META = "frugal/maxTokens";

/** Budget used for spilling when `@Ephemeral` has no budget of its own. */
export const DEFAULT_SPILL_BUDGET = 2000;

/**
 * The declared budget of an operation: the method's `@Budget`, else its class's, else the
 * app's `budget` option. App-only tools (never read by the model) have none.
 */
export function declaredBudget(
  definition: OperationDefinition,
  appBudget: number | undefined,
): number | undefined {
  if (definition.kind === "tool" && !definition.modelVisible) return undefined;
  return definition.metadata.budget?.tokens ?? definition.classMetadata.budget?.tokens ?? appBudget;
}

/** A client may lower the budget of one call with `_meta["frugal/maxTokens"]`, never raise it. */
export function effectiveBudget(
  declared: number | undefined,
  meta: Readonly<Record<string, unknown>>,
): number | undefined {
  const asked = meta[MAX_TOKENS_META];
  if (typeof asked !== "number" || !Number.isSafeInteger(asked) || asked < 1) return declared;
  return declared === undefined ? asked : Math.min(declared, asked);
}
