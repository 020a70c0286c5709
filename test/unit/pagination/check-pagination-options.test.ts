import { describe, expect, it } from "vitest";
import { FrugalConfigError } from "../../../src/errors/config-error.js";
import { checkPaginated, resolvePaginationSpec } from "../../../src/pagination/check-pagination-options.js";
import type { PaginatedOptions } from "../../../src/pagination/paginated-options.js";
import type { CapabilityTarget, OperationKind } from "../../../src/pipeline/capability.js";

const targetOf = (kind: OperationKind): CapabilityTarget => ({
  where: "Feed.list",
  kind,
  name: "list",
  serviceClass: Object,
  property: "list",
  fail(problem, fix) {
    throw new FrugalConfigError("Feed.list", `@Paginated ${problem}`, fix);
  },
  carries: () => false,
});
const check = (kind: OperationKind, options: PaginatedOptions = {}) =>
  checkPaginated({ stableKey: ["id"], options }, targetOf(kind));

describe("checkPaginated", () => {
  it("fills the defaults of a tool's and a resource's pages", () => {
    expect(check("tool")).toMatchObject({
      stableKey: ["id"],
      limit: 20,
      maxLimit: 100,
      order: "asc",
      as: "items",
    });
    expect(check("resource", { limit: 5 })).toMatchObject({ limit: 5, maxLimit: 100 });
  });

  it("refuses a prompt, naming the decorator and the fix", () => {
    expect(() => check("prompt")).toThrow(
      "Feed.list: @Paginated does not apply to prompts. Fix: remove @Paginated, or make this a tool.",
    );
  });

  it("refuses on a resource the options that shape a tool's text", () => {
    expect(() => check("resource", { as: "links", link: (item) => item })).toThrow(
      '@Paginated `as: "links"` applies to tools only',
    );
    expect(() => check("resource", { line: String })).toThrow("@Paginated `line` applies to tools only");
    expect(() => check("resource", { text: "json" })).toThrow("@Paginated `text` applies to tools only");
    expect(check("tool", { line: String }).line).toBe(String);
  });
});

describe("resolvePaginationSpec", () => {
  const problemOf = (stableKey: readonly string[], options: unknown) => {
    try {
      resolvePaginationSpec("Feed.list", stableKey, options as PaginatedOptions);
      return "none";
    } catch (error) {
      return (error as Error).message.split(". Fix:")[0];
    }
  };

  it("reports the first bad option, in the order of its checks", () => {
    // Every option below is bad; each step fixes the one reported, and the next is reported.
    const bad: Record<string, unknown> = {
      limit: 0,
      order: "up",
      fields: [],
      stream: { window: -1, graceMs: -1 },
      as: "links",
      adaptive: "yes",
      line: 3,
      aggregate: { maxScanItems: 0 },
    };
    const problems: string[] = [problemOf([], bad)];
    const fixes: Array<[string, unknown]> = [
      ["limit", 5],
      ["order", "asc"],
      ["fields", ["id"]],
      ["stream", { window: 1000, graceMs: -1 }],
      ["as", "items"],
      ["adaptive", false],
      ["line", undefined],
      ["stream", { window: 1000 }],
    ];
    problems.push(problemOf(["id"], bad));
    for (const [key, value] of fixes) {
      bad[key] = value;
      problems.push(problemOf(["id"], bad));
    }
    expect(problems).toEqual([
      "Feed.list: @Paginated needs a stable key of one field or more, not an empty array",
      "Feed.list: @Paginated `limit` must be a positive whole number, not 0",
      expect.stringMatching(/^Feed\.list: @Paginated `order` must be /),
      "Feed.list: @Paginated `fields` is empty",
      "Feed.list: @Paginated `stream.window` must be a positive whole number, not -1",
      expect.stringMatching(/^Feed\.list: @Paginated `as: "links"` needs a `link` function/),
      expect.stringMatching(/^Feed\.list: @Paginated `adaptive` /),
      expect.stringMatching(/^Feed\.list: @Paginated `line` must be a function/),
      expect.stringMatching(/^Feed\.list: @Paginated `stream\.graceMs` /),
      expect.stringMatching(/^Feed\.list: @Paginated .*aggregate/),
    ]);
  });
});
