import { describe, expect, it } from "vitest";
import { Budget } from "../../../src/budget/budget.capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Prompt } from "../../../src/decorators/prompt.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { Ephemeral } from "../../../src/ephemeral/ephemeral.capability.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";
import {
  allDefinitions,
  budgetsResources,
  declaresEphemeral,
  usesBudgets,
  usesPagination,
  writesPageTables,
} from "../../../src/runtime/registry-facts.js";
import { buildServices } from "../../support/unit-build.js";

@McpService()
class Plain {
  @Tool() hello() {}
  @Resource("config://app") config() {}
  @Resource("notes://{id}") note() {}
  @Prompt() greet() {
    return "";
  }
}
@McpService()
class Paged {
  @Tool() @Paginated("id") list() {}
}
@McpService()
class Lines {
  @Tool() @Paginated("seq", { line: (e: { seq: number }) => String(e.seq) }) tail() {}
  @Tool({ text: "json" }) @Paginated("id") raw() {}
  // Text no model reads, even asked for as "auto".
  @Tool({ visibility: ["app"], text: "auto" }) @Paginated("id") forApp() {}
}
@McpService()
class Spills {
  @Tool() @Ephemeral() dump() {}
}
@McpService()
class Budgeted {
  @Resource("docs://{id}") @Budget(500) doc() {}
}
@Budget(800)
@McpService()
class ClassBudget {
  @Resource("logs://{app}") logs() {}
}

describe("registry facts", () => {
  it("allDefinitions lists every operation of every kind", () => {
    expect(allDefinitions(buildServices([Plain])).map((d) => d.where)).toEqual([
      "Plain.hello",
      "Plain.config",
      "Plain.note",
      "Plain.greet",
    ]);
  });

  it("usesBudgets: true when a budget or a spill applies anywhere (the tokenizer is worth loading)", () => {
    expect(usesBudgets(buildServices([Plain]))).toBe(false);
    expect(usesBudgets(buildServices([Plain], { appBudget: 1000 }))).toBe(true);
    expect(usesBudgets(buildServices([Spills]))).toBe(true);
  });

  it("writesPageTables: only for model-visible auto-text pages written as tables", () => {
    expect(writesPageTables(buildServices([Paged]))).toBe(true);
    expect(writesPageTables(buildServices([Lines]))).toBe(false);
    expect(writesPageTables(buildServices([Plain]))).toBe(false);
  });

  it("usesPagination: true when anything is paginated", () => {
    expect(usesPagination(buildServices([Plain]))).toBe(false);
    expect(usesPagination(buildServices([Plain, Paged]))).toBe(true);
  });

  it("budgetsResources reads from metadata whether a resource is held to a budget", () => {
    expect(budgetsResources([Plain], undefined)).toBe(false);
    expect(budgetsResources([Plain], 2000)).toBe(true);
    expect(budgetsResources([Budgeted], undefined)).toBe(true);
    expect(budgetsResources([ClassBudget], undefined)).toBe(true);
    // An app budget without any resource holds no resource.
    expect(budgetsResources([Paged], 2000)).toBe(false);
  });

  it("declaresEphemeral reads @Ephemeral from metadata", () => {
    expect(declaresEphemeral([Plain, Paged])).toBe(false);
    expect(declaresEphemeral([Plain, Spills])).toBe(true);
  });
});
