import { FrugalConfigError, McpFactory, McpModule, McpService, Paginated, Tool } from "frugal-mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AGGREGATE_INPUT, aggregateBounds } from "../../../src/builder/aggregate-input.js";
import { OptionChecker } from "../../../src/builder/check-options.js";

const check = () => new OptionChecker("Svc.list", "@Paginated");

/** The start-up error of an app whose one paged tool has `options` (and `input`). */
async function startupMessage(options: object, input?: Record<string, z.ZodType>): Promise<string> {
  @McpService()
  class Svc {
    @Tool(input ? { input } : {})
    @Paginated("id", options as never)
    list() {
      return [];
    }
  }
  @McpModule({ services: [Svc] })
  class AppModule {}
  const error = await McpFactory.create(AppModule, { name: "t", version: "1" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FrugalConfigError);
  return (error as FrugalConfigError).message;
}

describe("@Paginated's aggregate option", () => {
  it("is false, or bounds that are positive whole numbers", () => {
    expect(aggregateBounds(check(), false)).toBe(false);
    expect(aggregateBounds(check(), undefined)).toEqual({});
    expect(aggregateBounds(check(), { maxScanItems: 500, maxGroups: 10 })).toEqual({
      maxScanItems: 500,
      maxGroups: 10,
    });
  });

  it("fails at start-up naming the bad bound and the fix", async () => {
    expect(await startupMessage({ aggregate: true })).toMatch(
      /`aggregate` must be false or an object of bounds, not true/,
    );
    expect(await startupMessage({ aggregate: { maxScanItems: 0 } })).toMatch(/`aggregate.maxScanItems`/);
    expect(await startupMessage({ aggregate: { maxScans: 5 } })).toMatch(/unknown option `maxScans`/);
  });

  it("says how to keep an input of one's own named aggregate", async () => {
    expect(await startupMessage({}, { aggregate: z.string() })).toMatch(
      /input field "aggregate" clashes with the input @Paginated adds.*or pass aggregate: false to @Paginated/,
    );
  });
});

describe("the aggregate input", () => {
  it("takes a field or fields, and refuses top below 1 or unknown keys", () => {
    expect(AGGREGATE_INPUT.safeParse({ groupBy: ["a", "b"], sum: "n", top: 3 }).success).toBe(true);
    expect(AGGREGATE_INPUT.safeParse({ groupBy: 5 }).success).toBe(false);
    expect(AGGREGATE_INPUT.safeParse({ top: 0 }).success).toBe(false);
    expect(AGGREGATE_INPUT.safeParse({ groupby: "a" }).success).toBe(false);
  });
});
