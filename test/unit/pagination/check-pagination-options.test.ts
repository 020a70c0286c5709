import { describe, expect, it } from "vitest";
import { FrugalConfigError } from "../../../src/errors/config-error.js";
import { checkPaginated } from "../../../src/pagination/check-pagination-options.js";
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
