import { copyOptions } from "../decorators/copy-options.js";
import { defineCapability } from "../decorators/define-capability.js";
import { stageFromApp } from "../pipeline/stage-from-app.js";
import { BUDGET_STAGE, budgetStageFor } from "./budget.stage.js";
import type { BudgetOptions, BudgetSpec, RecordedBudget } from "./budget-spec.js";
import { checkBudgetOptions, noBudget } from "./check-budget-options.js";

/**
 * The `_meta` key of the largest result, in characters, a host should take from a tool before
 * cutting it or writing it to disk (Claude Code reads it). frugal-mcp advertises it for every
 * tool held to a budget.
 */
export const MAX_RESULT_SIZE_META = "anthropic/maxResultSizeChars";

/** Characters per budgeted token in the hint: text averages about 4 per o200k token; twice that is room for any. */
const CHARS_PER_TOKEN = 8;
/** The largest hint hosts accept. */
const MAX_RESULT_SIZE_CHARS = 500_000;

/**
 * Holds what the model reads from a tool (or resource) to `tokens` tokens, counted by a
 * real BPE tokenizer. On a method or a class (the method wins; the app's `budget` option
 * is the default). Over the budget, a page shrinks, an `@Ephemeral` result spills, and
 * anything else answers `OUTPUT_BUDGET_EXCEEDED`: a result is never cut silently. Read an
 * operation's budget with `specOf(definition, Budget.capability)`.
 *
 * @example
 * ```ts
 * @Budget(2000)
 * @McpService()
 * class LogsService {
 *   @Tool() @Budget(500) summary() { … }   // 500 here, 2,000 for the others
 * }
 * ```
 */
export const Budget = defineCapability({
  name: "budget",
  decorator: "@Budget",
  classes: true,
  options: (tokens: number, options: BudgetOptions = {}): RecordedBudget => ({
    tokens,
    options: copyOptions(options),
  }),
  resolve: (recorded, target): BudgetSpec | undefined => checkBudgetOptions(recorded, target),
  // Every operation a model reads has the stage: a client may lower the limit of any call.
  absent: (target) => noBudget(target),
  tokenLimit: (spec) => spec.tokens,
  // Hosts that cut long results read this hint; a result held to its budget never needs cutting.
  meta: (spec) =>
    spec.tokens === undefined
      ? undefined
      : { [MAX_RESULT_SIZE_META]: Math.min(MAX_RESULT_SIZE_CHARS, spec.tokens * CHARS_PER_TOKEN) },
  stage: {
    place: "budget",
    after: "shape",
    create: stageFromApp(BUDGET_STAGE, budgetStageFor),
  },
});
