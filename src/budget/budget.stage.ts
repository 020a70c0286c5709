import type { InjectionToken } from "tsyringe";
import type { Logger } from "../logging/logger.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import {
  type CapabilityOperation,
  type CapabilityStageFunction,
  servesOversized,
} from "../pipeline/capability.js";
import { type Invocation, invocationOf, type Next, type Stage } from "../pipeline/invocation.js";
import { isErrorResult, Oversized, ResultPage } from "../pipeline/outcomes.js";
import { shapeResult, textRendering } from "../pipeline/shape-result.js";
import {
  DEFAULT_TOKEN_LIMIT,
  isSlicedRead,
  requestedTokenLimit,
  tokenLimit,
} from "../pipeline/token-limit.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { BudgetSpec } from "./budget-spec.js";
import { countResult } from "./count-result.js";
import { fitPage } from "./fit-page.js";
import { budgetExceeded, budgetExceededError, budgetExceededResult } from "./over-budget.js";
import { SkippedPage } from "./skipped-page.js";

/** What the budget stage works with. */
export interface BudgetStageDeps {
  readonly counter: TokenCounter;
  readonly metrics: AppMetrics;
  readonly logger: Logger;
  /**
   * The tool that reads any resource in slices held to the budget (`read_resource`), when
   * the app has it: a resource over its budget is refused with a hint that points to it.
   */
  readonly readTool?: string | undefined;
}

/** The app's budget stage dependencies, which `@Budget`'s stage resolves (`services.resolve`). */
export const BUDGET_STAGE: InjectionToken<BudgetStageDeps> = Symbol.for("frugal-mcp.BUDGET_STAGE");

/**
 * Holds what the model reads to the budget (the method's, its class's, the app's, lowered
 * by the client's `_meta["frugal/maxTokens"]`). Within budget, the value passes on. Over
 * it: a page shrinks to its largest prefix that fits (or skips a lone item too large);
 * when a later stage can store it (`@Ephemeral`), the value goes on as `Oversized`;
 * otherwise the call answers `OUTPUT_BUDGET_EXCEEDED`. Nothing is ever cut silently.
 */
export function budgetStageFor(
  spec: BudgetSpec,
  operation: CapabilityOperation,
  deps: BudgetStageDeps,
): CapabilityStageFunction {
  const { counter, metrics, logger } = deps;
  const declared = spec.tokens;
  const mustError = spec.onExceed === "error";
  const { name } = operation;
  // Whether a stage around this one stores a result over the limit (`@Ephemeral`): known
  // from the built definition, read on the first call.
  let spills: boolean | undefined;

  const held = async (invocation: Invocation, next: Next, budget: number) => {
    const { definition } = invocation;
    const value = await next();
    if (isErrorResult(value)) return value;

    if (value instanceof ResultPage && !mustError) {
      const fitted = await fitPage(value, { ...textRendering(invocation, counter), limit: budget });
      if (fitted.kind === "fits") {
        metrics.recordTokens(name, fitted.tokens);
        invocation.outcome.tokens = fitted.tokens;
        return fitted.page;
      }
      if (spills) return new Oversized(value, fitted.tokens, budget);
      logger.debug(`${name}: an item of ${fitted.tokens}+ tokens is over the budget of ${budget}; skipped`);
      return skipFirstItem(value, fitted.tokens, budget);
    }

    const counted = await countResult(await shapeResult(invocation, value, counter), counter, budget);
    if (counted.tokens <= budget) {
      metrics.recordTokens(name, counted.tokens);
      invocation.outcome.tokens = counted.tokens;
      return value;
    }
    if (spills && !mustError) return new Oversized(value, counted.tokens, budget);
    const exceeded = budgetExceeded(
      definition,
      counted.tokens,
      budget,
      invocation.uri,
      counted.estimated,
      deps.readTool,
    );
    logger.debug(`${name}: result over budget`, exceeded);
    if (definition.kind === "tool") return budgetExceededResult(exceeded);
    throw budgetExceededError(exceeded);
  };

  const stage: Stage = (invocation, next) => {
    const { meta } = invocation.ctx;
    spills ??= servesOversized(invocation.definition);
    // A read for a tool that slices what it reads to its own budget (the cache keys it apart).
    if (isSlicedRead(meta)) return next();
    // The common case (no budget, no per-call limit) must cost nothing: no allocation, no
    // counting, not even a wait for the result (this stage is on every visible call's path).
    if (declared === undefined && !spills && requestedTokenLimit(meta) === undefined) return next();
    return held(invocation, next, tokenLimit(declared, meta) ?? DEFAULT_TOKEN_LIMIT);
  };
  // The pipeline passes its invocation, which is the capability call this stage reads.
  return (call, next) => stage(invocationOf(call), next);
}

/** A page that returns nothing but says which item was skipped and how to go on after it. */
function skipFirstItem(page: ResultPage, tokens: number, budget: number): ResultPage {
  return new SkippedPage(page.cursorAfter(0), page.count > 1 || page.hasMore, [
    { position: 0, tokens, budget, reason: "this item alone is over the token budget" },
  ]);
}
