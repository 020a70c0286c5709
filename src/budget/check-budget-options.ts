import { OptionChecker } from "../builder/check-options.js";
import { fieldOf } from "../common/guards.js";
import type { CapabilityTarget } from "../pipeline/capability.js";
import type { BudgetOptions, BudgetSpec } from "./budget-spec.js";

// Every option key (the `Record` makes the compiler flag a key added to the type but not here).
const BUDGET_OPTIONS = Object.keys({ onExceed: true } satisfies Record<keyof BudgetOptions, true>);

/** No budget declared: the stage still honours a client's per-call limit. */
const NO_BUDGET: BudgetSpec = Object.freeze({ tokens: undefined, onExceed: "auto" });

/**
 * `@Budget`'s recorded `{ tokens, options }` checked (on a method, its class or as the app's
 * `budget`, `target.where` naming which), or `undefined` for an app-only tool: what no model
 * reads is never budgeted, but a typo in its options still fails start-up.
 */
export function checkBudgetOptions(recorded: unknown, target: CapabilityTarget): BudgetSpec | undefined {
  const check: OptionChecker = new OptionChecker(target.where, "@Budget");
  const tokens = check.positiveInteger("`tokens`", fieldOf(recorded, "tokens"), "@Budget(2000)");
  const options = check.knownKeys(fieldOf(recorded, "options"), BUDGET_OPTIONS);
  const onExceed =
    options.onExceed === undefined
      ? "auto"
      : check.oneOf("`onExceed`", options.onExceed, ["auto", "error"] as const);
  return unbudgeted(target) ? undefined : { tokens, onExceed };
}

/** The budget of an operation nothing budgets: none, but per-call limits still apply (not to app-only tools). */
export function noBudget(target: CapabilityTarget): BudgetSpec | undefined {
  return unbudgeted(target) ? undefined : NO_BUDGET;
}

function unbudgeted(target: CapabilityTarget): boolean {
  return target.kind === "tool" && target.modelVisible === false;
}
