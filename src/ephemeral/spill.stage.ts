import { DEFAULT_SPILL_BUDGET, declaredBudget, effectiveBudget } from "../budget/budget-of.js";
import { OverBudget } from "../budget/over-budget.js";
import type { TokenCounter } from "../budget/token-counter.js";
import { markNotCacheable } from "../cache/cacheable.js";
import { Page } from "../pagination/page.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { TOKEN_COUNTER } from "../tokens.js";
import { spillSummary } from "./spill-summary.js";

/**
 * Under `@Ephemeral`: stores a result over the budget (or every result, with
 * `when: "always"`) as an ephemeral resource and answers with a link and a summary.
 * A spilled answer is never cached (its resource expires). If storing fails, the call
 * fails with the reason: a result is never silently lost.
 */
export const spillStage: StageFactory = {
  name: "spill",
  create(definition, env) {
    const options = definition.metadata.ephemeral;
    if (!options || definition.kind !== "tool") return undefined;
    const counter = env.resolve(TOKEN_COUNTER) as TokenCounter;
    const declared = declaredBudget(definition, env.appBudget);
    return async (invocation, next) => {
      const value = await next();
      if ((value as { isError?: unknown } | null)?.isError === true) return value;
      const overBudget = value instanceof OverBudget;
      if (!overBudget && options.when !== "always") return value;
      let stored = overBudget ? value.value : value;
      let nextCursor: string | null | undefined;
      if (stored instanceof Page) {
        nextCursor = stored.nextCursor;
        stored = stored.items;
      }
      const meta = await env.ephemeral.create(
        stored,
        {
          tool: definition.name,
          name: options.name ?? definition.name,
          ...(options.description === undefined ? {} : { description: options.description }),
          ...(options.mimeType === undefined ? {} : { mimeType: options.mimeType }),
          ...(options.ttl === undefined ? {} : { ttl: options.ttl }),
          scope: options.scope ?? "owner",
        },
        invocation.ctx.owner,
      );
      const budget = overBudget
        ? value.budget
        : (effectiveBudget(declared, invocation.ctx.meta) ?? DEFAULT_SPILL_BUDGET);
      const result = await spillSummary(
        {
          meta,
          value: stored,
          overBudget,
          budget,
          preview: options.preview ?? true,
          readTool: env.ephemeralTools.read,
          searchTool: env.ephemeralTools.search,
          ...(nextCursor === undefined ? {} : { nextCursor }),
        },
        counter,
      );
      return markNotCacheable(result);
    };
  },
};
