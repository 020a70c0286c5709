import { z } from "zod";
import { defineCapability } from "../decorators/define-capability.js";
import { stageFromApp } from "../pipeline/stage-from-app.js";
import { checkEphemeralOptions } from "./check-ephemeral-options.js";
import { SPILL_STAGE, spillStageFor } from "./spill.stage.js";
import type { EphemeralOptions, SpillSpec } from "./spill-spec.js";

/** What a spilled call puts in `structuredContent`: a tool's declared output must allow it. */
export const SPILLED_SCHEMA = z.object({
  spilled: z.object({ uri: z.string(), size: z.number(), expiresAt: z.string() }),
  nextCursor: z.string().nullable().optional(),
});

/**
 * Stores a tool's large result as a short-lived resource instead of returning it: the
 * tool answers with a `resource_link` and a summary, and the client reads or searches
 * the resource in slices (`read_resource`, `search_resource`). By default only results
 * over the budget (the method's, class's or app's, else 2,000 tokens) are stored. Read an
 * operation's resolved options with `specOf(definition, Ephemeral.capability)`.
 *
 * @example
 * ```ts
 * @Tool({ input: { query: z.string() } })
 * @Ephemeral({ ttl: 3_600_000, mimeType: "application/json" })
 * searchLogs({ query }: { query: string }) { return this.logs.search(query); }
 * ```
 */
export const Ephemeral = defineCapability({
  name: "ephemeral",
  decorator: "@Ephemeral",
  on: ["tool"],
  options: (options: EphemeralOptions = {}): EphemeralOptions => options,
  resolve: (options, target): SpillSpec => checkEphemeralOptions(options, target),
  // A spilled result answers `{ spilled: { uri, size, expiresAt } }`: the declared schema must allow it.
  result: (_spec, schema) => z.union([schema, SPILLED_SCHEMA]),
  // Its stage stores what the budget finds too large.
  servesOversized: true,
  stage: {
    place: "spill",
    before: "budget",
    create: stageFromApp(SPILL_STAGE, spillStageFor),
  },
});
