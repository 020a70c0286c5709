import { z } from "zod";
import type { AggregateBounds } from "../metadata/definitions.js";
import { describe, type OptionChecker } from "./check-options.js";

/**
 * `@Paginated`'s `aggregate` option: false (no such input), or bounds that are positive
 * whole numbers (the app's fill the rest when the stage is made).
 */
export function aggregateBounds(check: OptionChecker, value: unknown): false | AggregateBounds {
  if (value === false) return false;
  if (value === undefined) return {};
  if (value === true || typeof value !== "object" || value === null) {
    check.fail(
      `\`aggregate\` must be false or an object of bounds, not ${describe(value)}`,
      "e.g. aggregate: { maxScanItems: 20_000 }, or aggregate: false to leave the input out",
    );
  }
  const bounds = check.knownKeys(value, AGGREGATE_BOUNDS, "`aggregate`") as AggregateBounds;
  for (const name of AGGREGATE_BOUNDS) {
    const bound = bounds[name as keyof AggregateBounds];
    if (bound !== undefined)
      check.positiveInteger(`\`aggregate.${name}\``, bound, `aggregate: { ${name}: 1_000 }`);
  }
  return { ...bounds };
}

const AGGREGATE_BOUNDS = Object.keys({
  maxScanItems: true,
  maxScanMs: true,
  maxGroups: true,
} satisfies Record<keyof AggregateBounds, true>);

/** One field name, or several. */
const fieldNames = z.union([z.string(), z.array(z.string())]);

/**
 * The `aggregate` input of a paged tool: short on purpose, every paged tool's listing
 * carries it. Field names are checked when the call runs (the refusal names the bad part).
 */
export const AGGREGATE_INPUT = z
  .strictObject({
    count: z.boolean().optional(),
    groupBy: fieldNames.optional(),
    sum: z.string().optional(),
    min: z.string().optional(),
    max: z.string().optional(),
    avg: z.string().optional(),
    top: z.number().int().min(1).max(1000).optional(),
  })
  .optional()
  .describe("Count or group every matching item instead of a page.");

/**
 * What a paged tool may answer besides its page: the aggregate answer, and the size-only
 * answer of `limit: 0` (`total` null when unknown). A declared output schema allows them.
 */
export const PAGED_TOOL_ANSWERS = [
  z.object({
    groups: z.array(z.object({ key: z.record(z.string(), z.unknown()), count: z.number() }).loose()),
    total: z.number(),
    scanned: z.number().optional(),
    partial: z.boolean().optional(),
  }),
  z.object({ total: z.number().nullable() }),
] as const;
