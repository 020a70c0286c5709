import type { InjectionToken } from "tsyringe";
import { OutcomeKey } from "../pipeline/call-outcome.js";
import type { CapabilityOperation, CapabilityStageFunction } from "../pipeline/capability.js";
import { invocationOf, type Stage } from "../pipeline/invocation.js";
import { isErrorResult, Oversized, ResultPage } from "../pipeline/outcomes.js";
import { callTokenLimit, DEFAULT_TOKEN_LIMIT } from "../pipeline/token-limit.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { EphemeralResources } from "./ephemeral-resources.js";
import type { SpillSpec } from "./spill-spec.js";
import { spillSummary } from "./spill-summary.js";

/** What the spill stage works with. */
export interface SpillStageDeps {
  readonly resources: EphemeralResources;
  readonly counter: TokenCounter;
  /** Names of the built-in resource tools, as summaries mention them. */
  readonly tools: { readonly read: string; readonly search: string };
}

/** The app's spill stage dependencies, which `@Ephemeral`'s stage resolves (`services.resolve`). */
export const SPILL_STAGE: InjectionToken<SpillStageDeps> = Symbol.for("frugal-mcp.SPILL_STAGE");

/** True when the result was stored as an ephemeral resource and a link returned (counters and traces read it). */
export const SPILLED = new OutcomeKey<boolean>("ephemeral.spilled");

/**
 * Under `@Ephemeral`: stores a result over the budget (or every result, with
 * `when: "always"`) as an ephemeral resource and answers with a link and a summary.
 * A spilled answer is never cached (its resource expires). If storing fails, the call
 * fails with the reason: a result is never silently lost.
 */
export function spillStageFor(
  spec: SpillSpec,
  operation: CapabilityOperation,
  deps: SpillStageDeps,
): CapabilityStageFunction | undefined {
  if (operation.kind !== "tool") return undefined;
  const stage: Stage = async (invocation, next) => {
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
        tool: operation.name,
        name: spec.name,
        ...(spec.description === undefined ? {} : { description: spec.description }),
        ...(spec.mimeType === undefined ? {} : { mimeType: spec.mimeType }),
        ...(spec.ttl === undefined ? {} : { ttl: spec.ttl }),
        scope: spec.scope,
      },
      invocation.ctx.owner,
    );
    invocation.outcome.keepable = false;
    SPILLED.set(invocation.outcome, true);
    return spillSummary(
      {
        meta,
        value: stored,
        budget:
          oversized?.limit ??
          callTokenLimit(invocation.definition, invocation.ctx.meta) ??
          DEFAULT_TOKEN_LIMIT,
        preview: spec.preview,
        readTool: deps.tools.read,
        searchTool: deps.tools.search,
        ...(nextCursor === undefined ? {} : { nextCursor }),
      },
      deps.counter,
    );
  };
  // The pipeline passes its invocation, which is the capability call this stage reads.
  return (call, next) => stage(invocationOf(call), next);
}
