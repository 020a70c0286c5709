import { describe, expect, it } from "vitest";
import { describe as describeValue, listOf, OptionChecker } from "../../../src/builder/check-options.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";

const check = new OptionChecker("ArticlesService.list", "@Cached");
/** The message of the start-up error `run` throws. */
function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(FrugalConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a FrugalConfigError");
}

describe("OptionChecker", () => {
  it("fails naming the member and the decorator, then the fix", () => {
    expect(failure(() => check.fail("is broken", "mend it"))).toBe(
      "ArticlesService.list: @Cached is broken. Fix: mend it.",
    );
    expect(failure(() => new OptionChecker("McpFactory.create options").fail("x is odd", "y"))).toBe(
      "McpFactory.create options: x is odd. Fix: y.",
    );
  });

  it("knownKeys: accepts known keys and absent options, refuses typos and non-objects by name", () => {
    expect(check.knownKeys({ ttl: 1 }, ["ttl", "scope"])).toEqual({ ttl: 1 });
    expect(check.knownKeys(undefined, ["ttl"])).toEqual({});
    expect(failure(() => check.knownKeys({ tll: 1 }, ["ttl", "scope"]))).toBe(
      "ArticlesService.list: @Cached has an unknown option `tll`. Fix: use only `ttl` or `scope`.",
    );
    expect(failure(() => check.knownKeys({ a: 1, b: 2 }, ["ttl"]))).toBe(
      "ArticlesService.list: @Cached has unknown options `a` and `b`. Fix: use only `ttl`.",
    );
    expect(failure(() => check.knownKeys("list", ["ttl", "scope"]))).toBe(
      'ArticlesService.list: @Cached options must be an object, not "list". Fix: pass { ttl, scope }.',
    );
    expect(failure(() => check.knownKeys({ x: 1 }, ["window", "maxBytes"], "`stream`"))).toMatch(
      /@Cached `stream` has an unknown option `x`/,
    );
  });

  it("positiveInteger and nonNegativeInteger refuse fractions, zero or negatives, and say what was given", () => {
    expect(check.positiveInteger("`tokens`", 5, "@Budget(2000)")).toBe(5);
    expect(failure(() => check.positiveInteger("`tokens`", undefined, "@Budget(2000)"))).toMatch(
      /`tokens` is missing; it must be a positive whole number\. Fix: e\.g\. @Budget\(2000\)\./,
    );
    expect(failure(() => check.positiveInteger("`tokens`", 1.5, "@Budget(2000)"))).toMatch(/not 1\.5/);
    expect(failure(() => check.positiveInteger("`tokens`", 0, "x"))).toMatch(/not 0/);
    expect(check.nonNegativeInteger("`graceMs`", 0, "graceMs: 250")).toBe(0);
    expect(failure(() => check.nonNegativeInteger("`graceMs`", -1, "graceMs: 250"))).toMatch(
      /`graceMs` must be a whole number of 0 or more, not -1/,
    );
  });

  it("positiveDuration refuses missing, zero, infinite and non-number durations", () => {
    expect(check.positiveDuration("`ttl`", 0.5, "x")).toBe(0.5);
    expect(failure(() => check.positiveDuration("`ttl`", undefined, "@Cached({ ttl: 60_000 })"))).toMatch(
      /`ttl` is missing; it must be a positive, finite number of milliseconds/,
    );
    for (const [value, shown] of [
      [Number.NaN, "NaN"],
      [Number.POSITIVE_INFINITY, "Infinity"],
      ["60000", '"60000"'],
      [0, "0"],
    ] as const) {
      expect(failure(() => check.positiveDuration("`ttl`", value, "x"))).toContain(`not ${shown}`);
    }
  });

  it("oneOf, optionalBoolean and optionalString list what is allowed", () => {
    expect(check.oneOf("`scope`", "owner", ["owner", "global"])).toBe("owner");
    expect(failure(() => check.oneOf("`scope`", "user", ["owner", "global"]))).toBe(
      'ArticlesService.list: @Cached `scope` must be "owner" or "global", not "user". Fix: use "owner" or "global".',
    );
    expect(check.optionalBoolean("`adaptive`", undefined, "x")).toBeUndefined();
    expect(failure(() => check.optionalBoolean("`adaptive`", "yes", "use true"))).toMatch(
      /`adaptive` must be true or false, not "yes"\. Fix: use true\./,
    );
    expect(check.optionalString("`name`", "a")).toBe("a");
    expect(failure(() => check.optionalString("`name`", 3))).toMatch(
      /`name` must be a string, not 3\. Fix: pass a string, or leave `name` out\./,
    );
  });
});

describe("describe", () => {
  it("shows a bad value the way a reader recognises it", () => {
    expect(describeValue("0")).toBe('"0"');
    expect(describeValue(Number.NaN)).toBe("NaN");
    expect(describeValue(10n)).toBe("10");
    expect(describeValue(null)).toBe("null");
    expect(describeValue(undefined)).toBe("undefined");
    expect(describeValue([])).toBe("an empty array");
    expect(describeValue([1])).toBe("an array");
    expect(describeValue(function named() {})).toBe("a function (named)");
    expect(describeValue(() => 1)).toBe("a function (anonymous)");
    expect(describeValue(Symbol("s"))).toBe("Symbol(s)");
    expect(describeValue({})).toBe("an object");
  });
});

describe("listOf", () => {
  it("joins with commas and the conjunction before the last", () => {
    expect(listOf([], "or")).toBe("");
    expect(listOf(["a"], "or")).toBe("a");
    expect(listOf(["a", "b"], "and")).toBe("a and b");
    expect(listOf(["a", "b", "c"], "or")).toBe("a, b or c");
  });
});
