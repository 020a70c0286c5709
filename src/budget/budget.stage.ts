import type { OperationDefinition } from "../builder/definitions.js";
import { Page } from "../pagination/page.js";
import type { Invocation } from "../pipeline/invocation.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { shapePromptResult } from "../results/shape-prompt-result.js";
import { shapeResourceResult } from "../results/shape-resource-result.js";
import { jsonOf, shapesAsJson, shapeToolResult } from "../results/shape-tool-result.js";
import { TOKEN_COUNTER } from "../tokens.js";
import { DEFAULT_SPILL_BUDGET, declaredBudget, effectiveBudget, MAX_TOKENS_META } from "./budget-of.js";
import { countResult } from "./count-result.js";
import { fitPage } from "./fit-page.js";
import { budgetExceeded, budgetExceededError, budgetExceededResult, OverBudget } from "./over-budget.js";
import type { TokenCounter } from "./token-counter.js";

/**
 * Holds what the model reads to the budget (the method's, its class's, the app's, lowered
 * by the client's `_meta["frugal/maxTokens"]`). Within budget, the value passes on. Over
 * it: a page shrinks to its largest prefix that fits (or skips a lone item too large);
 * under `@Ephemeral` the value goes on to be spilled; otherwise the call answers
 * `OUTPUT_BUDGET_EXCEEDED`. Nothing is ever cut silently.
 */
export const budgetStage: StageFactory = {
  name: "budget",
  create(definition, env) {
    if (definition.kind === "tool" && !definition.modelVisible) return undefined;
    const declared = declaredBudget(definition, env.appBudget);
    const spills = definition.metadata.ephemeral !== undefined;
    const mustError = definition.metadata.budget?.options.onExceed === "error";
    const counter = env.resolve(TOKEN_COUNTER) as TokenCounter;
    const name = definition.kind === "resource" ? definition.uri : definition.name;

    return async (invocation, next) => {
      const value = await next();
      // The common case (no budget, no per-call limit) must cost nothing: no allocation, no counting.
      if (declared === undefined && !spills && invocation.ctx.metaValue(MAX_TOKENS_META) === undefined)
        return value;
      const asked = effectiveBudget(declared, invocation.ctx.meta);
      if (asked === undefined && !spills) return value;
      const budget = asked ?? DEFAULT_SPILL_BUDGET;
      if ((value as { isError?: unknown } | null)?.isError === true) return value;

      if (value instanceof Page && !mustError) {
        const fitted = await fitPage(value, budget, counter);
        if (fitted.kind === "fits") {
          env.metrics.recordTokens(name, fitted.tokens);
          return fitted.page;
        }
        if (spills) return new OverBudget(value, fitted.tokens, budget);
        env.logger.debug(
          `${name}: an item of ${fitted.tokens}+ tokens is over the budget of ${budget}; skipped`,
        );
        return skipFirstItem(value, fitted.tokens, budget);
      }

      // A value shaped as JSON is read as its JSON text: count that directly, without shaping it.
      const counted =
        definition.kind === "tool" && shapesAsJson(value)
          ? await counter.count(jsonOf(value), budget)
          : await countResult(shapeFor(definition, value, invocation), counter, budget);
      if (counted.tokens <= budget) {
        env.metrics.recordTokens(name, counted.tokens);
        return value;
      }
      if (spills && !mustError) return new OverBudget(value, counted.tokens, budget);
      const exceeded = budgetExceeded(definition, counted.tokens, budget, invocation.uri);
      env.logger.debug(`${name}: result over budget`, exceeded);
      if (definition.kind === "tool") return budgetExceededResult(exceeded);
      throw budgetExceededError(exceeded);
    };
  },
};

/** The result as the shape stage will make it, to count exactly what the model reads. */
function shapeFor(definition: OperationDefinition, value: unknown, invocation: Invocation): unknown {
  switch (definition.kind) {
    case "tool":
      return shapeToolResult(value);
    case "resource":
      return shapeResourceResult(value, invocation.uri ?? definition.uri, definition.mimeType);
    case "prompt":
      return shapePromptResult(value, definition.listing.description);
  }
}

/** A page that returns nothing but says which item was skipped and how to go on after it. */
function skipFirstItem(page: Page, tokens: number, budget: number) {
  return {
    items: [],
    nextCursor: page.cursorAfter(0),
    hasMore: page.count > 1 || page.hasMore,
    count: 0,
    skipped: [{ position: 0, tokens, budget, reason: "this item alone is over the token budget" }],
  };
}
