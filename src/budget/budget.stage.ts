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
import { countResult, type ResultCount } from "./count-result.js";
import { type FittedPage, fitPage } from "./fit-page.js";
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
  const declared = spec.tokens;
  const hold = new BudgetHold(deps, operation.name, spec.onExceed === "error");
  const stage: Stage = (invocation, next) => {
    const { meta } = invocation.ctx;
    hold.spills ??= servesOversized(invocation.definition);
    // A read for a tool that slices what it reads to its own budget (the cache keys it apart).
    if (isSlicedRead(meta)) return next();
    // The common case (no budget, no per-call limit) must cost nothing: no allocation, no
    // counting, not even a wait for the result (this stage is on every visible call's path).
    if (declared === undefined && !hold.spills && requestedTokenLimit(meta) === undefined) return next();
    return hold.held(invocation, next, tokenLimit(declared, meta) ?? DEFAULT_TOKEN_LIMIT);
  };
  // The pipeline passes its invocation, which is the capability call this stage reads.
  return (call, next) => stage(invocationOf(call), next);
}

/**
 * One budget stage's handling of a call under a limit: the result counted against it, and
 * what a result over it becomes. Made once per stage, so a call allocates nothing for it.
 */
class BudgetHold {
  /**
   * Whether a stage around this one stores a result over the limit (`@Ephemeral`): known
   * from the built definition, read on the first call.
   */
  spills: boolean | undefined;

  constructor(
    private readonly deps: BudgetStageDeps,
    private readonly name: string,
    private readonly mustError: boolean,
  ) {}

  async held(invocation: Invocation, next: Next, budget: number): Promise<unknown> {
    const { counter } = this.deps;
    const value = await next();
    if (isErrorResult(value)) return value;
    if (value instanceof ResultPage && !this.mustError) {
      const fitted = await fitPage(value, { ...textRendering(invocation, counter), limit: budget });
      return this.pageHeld(invocation, value, fitted, budget);
    }
    const counted = await countResult(await shapeResult(invocation, value, counter), counter, budget);
    if (counted.tokens <= budget) {
      this.record(invocation, counted.tokens);
      return value;
    }
    return this.overBudget(invocation, value, counted, budget);
  }

  /** A page over the budget shrinks to the prefix that fits; a lone item too large is stored or skipped. */
  private pageHeld(invocation: Invocation, page: ResultPage, fitted: FittedPage, budget: number): unknown {
    if (fitted.kind === "fits") {
      this.record(invocation, fitted.tokens);
      return fitted.page;
    }
    if (this.spills) return new Oversized(page, fitted.tokens, budget);
    this.deps.logger.debug(
      `${this.name}: an item of ${fitted.tokens}+ tokens is over the budget of ${budget}; skipped`,
    );
    return skipFirstItem(page, fitted.tokens, budget);
  }

  /** A value over the budget goes on to be stored when it can; else a tool answers an error result, a resource throws. */
  private overBudget(invocation: Invocation, value: unknown, counted: ResultCount, budget: number): unknown {
    if (this.spills && !this.mustError) return new Oversized(value, counted.tokens, budget);
    const { definition } = invocation;
    const exceeded = budgetExceeded(
      definition,
      counted.tokens,
      budget,
      invocation.uri,
      counted.estimated,
      this.deps.readTool,
    );
    this.deps.logger.debug(`${this.name}: result over budget`, exceeded);
    if (definition.kind === "tool") return budgetExceededResult(exceeded);
    throw budgetExceededError(exceeded);
  }

  private record(invocation: Invocation, tokens: number): void {
    this.deps.metrics.recordTokens(this.name, tokens);
    invocation.outcome.tokens = tokens;
  }
}

/** A page that returns nothing but says which item was skipped and how to go on after it. */
function skipFirstItem(page: ResultPage, tokens: number, budget: number): ResultPage {
  return new SkippedPage(page.cursorAfter(0), page.count > 1 || page.hasMore, [
    { position: 0, tokens, budget, reason: "this item alone is over the token budget" },
  ]);
}
