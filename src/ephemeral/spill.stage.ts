import type { Stage } from "../pipeline/invocation.js";
import type { OperationDefinition } from "../pipeline/operation.js";
import { isErrorResult, Oversized, ResultPage } from "../pipeline/outcomes.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { DEFAULT_TOKEN_LIMIT, tokenLimit } from "../pipeline/token-limit.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { EphemeralResources } from "./ephemeral-resources.js";
import { spillSummary } from "./spill-summary.js";

/** What the spill stage works with. */
export interface SpillStageDeps {
  readonly resources: EphemeralResources;
  readonly counter: TokenCounter;
  /** Names of the built-in resource tools, as summaries mention them. */
  readonly tools: { readonly read: string; readonly search: string };
}

/**
 * Under `@Ephemeral`: stores a result over the budget (or every result, with
 * `when: "always"`) as an ephemeral resource and answers with a link and a summary.
 * A spilled answer is never cached (its resource expires). If storing fails, the call
 * fails with the reason: a result is never silently lost.
 */
export function spillStage(deps: SpillStageDeps): StageFactory {
  return { name: "spill", create: (definition) => spillFor(definition, deps) };
}

function spillFor(definition: OperationDefinition, deps: SpillStageDeps): Stage | undefined {
  const spec = definition.spill;
  if (!spec || definition.kind !== "tool") return undefined;
  return async (invocation, next) => {
    const value = await next();
    if (isErrorResult(value)) return value;
    const oversized = value instanceof Oversized ? value : undefined;
    if (!oversized && spec.when !== "always") return value;
    let stored = oversized ? oversized.value : value;
    let nextCursor: string | null | undefined;
    if (stored instanceof ResultPage) {
      nextCursor = stored.nextCursor;
      stored = stored.items;
    }
    const meta = await deps.resources.create(
      stored,
      {
        tool: definition.name,
        name: spec.name,
        ...(spec.description === undefined ? {} : { description: spec.description }),
        ...(spec.mimeType === undefined ? {} : { mimeType: spec.mimeType }),
        ...(spec.ttl === undefined ? {} : { ttl: spec.ttl }),
        scope: spec.scope,
      },
      invocation.ctx.owner,
    );
    invocation.outcome.keepable = false;
    invocation.outcome.spilled = true;
    return spillSummary(
      {
        meta,
        value: stored,
        budget:
          oversized?.budget ??
          tokenLimit(definition.budget?.tokens, invocation.ctx.meta) ??
          DEFAULT_TOKEN_LIMIT,
        preview: spec.preview,
        readTool: deps.tools.read,
        searchTool: deps.tools.search,
        ...(nextCursor === undefined ? {} : { nextCursor }),
      },
      deps.counter,
    );
  };
}
