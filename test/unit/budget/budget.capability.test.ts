import { describe, expect, it } from "vitest";
import { Budget, MAX_RESULT_SIZE_META } from "../../../src/budget/budget.capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";
import { specOf } from "../../../src/pipeline/capability.js";
import { buildServices, resourceOf, toolOf } from "../../support/unit-build.js";

const recordedBudget = (records: readonly { capability: object; options: unknown }[] | undefined) =>
  records?.find((entry) => entry.capability === Budget.capability)?.options;

describe("@Budget: what it records", () => {
  it("on a class records the service's default budget; on a method, the method's own", () => {
    @Budget(2000)
    class LogsService {
      @Budget(500, { onExceed: "error" }) summary() {}
      tail() {}
    }
    expect(recordedBudget(metadataStore.service(LogsService)?.capabilities)).toEqual({
      tokens: 2000,
      options: {},
    });
    const summary = metadataStore.ownMethod(LogsService.prototype, "summary");
    expect(summary?.memberKind).toBe("method");
    expect(recordedBudget(summary?.capabilities)).toEqual({ tokens: 500, options: { onExceed: "error" } });
    expect(metadataStore.ownMethod(LogsService.prototype, "tail")).toBeUndefined();
  });

  it("is inherited by a subclass that declares no budget of its own", () => {
    @Budget(800)
    class Base {}
    class Child extends Base {}
    expect(recordedBudget(metadataStore.service(Child)?.capabilities)).toMatchObject({ tokens: 800 });
  });

  it("copies its options, so changing them afterwards does not change the budget", () => {
    const options: { onExceed: "auto" | "error" } = { onExceed: "error" };
    class S {
      @Budget(100, options) list() {}
    }
    options.onExceed = "auto";
    expect(recordedBudget(metadataStore.ownMethod(S.prototype, "list")?.capabilities)).toEqual({
      tokens: 100,
      options: { onExceed: "error" },
    });
  });
});

describe("@Budget: resolved at start-up", () => {
  it("takes the method's budget, else the class's, else the app's", () => {
    @McpService()
    class Logs {
      @Tool() @Budget(300, { onExceed: "error" }) summary() {}
      @Tool() tail() {}
    }
    @Budget(900)
    @McpService()
    class Classy {
      @Tool() head() {}
    }
    expect(specOf(toolOf(Logs, "summary"), Budget.capability)).toEqual({ tokens: 300, onExceed: "error" });
    expect(specOf(toolOf(Classy, "head", { appBudget: 2000 }), Budget.capability)).toEqual({
      tokens: 900,
      onExceed: "auto",
    });
    expect(specOf(toolOf(Logs, "tail", { appBudget: 2000 }), Budget.capability)).toEqual({
      tokens: 2000,
      onExceed: "auto",
    });
    // No budget: the stage still honours a client's per-call limit.
    expect(specOf(toolOf(Logs, "tail"), Budget.capability)).toEqual({ tokens: undefined, onExceed: "auto" });
  });

  it("budgets no app-only tool, but still checks its class budget", () => {
    @McpService()
    class Widgets {
      @Tool({ visibility: ["app"] }) @Budget(500) render() {}
    }
    expect(specOf(toolOf(Widgets, "render", { appBudget: 2000 }), Budget.capability)).toBeUndefined();
    @Budget(0)
    @McpService()
    class Broken {
      @Tool({ visibility: ["app"] }) render() {}
    }
    expect(() => buildServices([Broken])).toThrow(
      "Broken: @Budget `tokens` must be a positive whole number, not 0",
    );
  });

  it("refuses an unknown onExceed, naming the method", () => {
    @McpService()
    class Logs {
      @Tool() @Budget(5, { onExceed: "cut" as never }) list() {}
    }
    expect(() => buildServices([Logs])).toThrow(
      'Logs.list: @Budget `onExceed` must be "auto" or "error", not "cut"',
    );
  });

  it("holds resources too, and advertises the size hint on budgeted tools only", () => {
    @McpService()
    class Docs {
      @Resource("docs://readme") @Budget(400) readme() {}
      @Tool() @Budget(100) short() {}
      @Tool() @Budget(100_000) long() {}
      @Tool({ meta: { [MAX_RESULT_SIZE_META]: 7 } }) @Budget(100) own() {}
      @Tool() plain() {}
    }
    expect(specOf(resourceOf(Docs, "docs://readme"), Budget.capability)?.tokens).toBe(400);
    expect(toolOf(Docs, "short").listing._meta).toEqual({ [MAX_RESULT_SIZE_META]: 800 });
    expect(toolOf(Docs, "long").listing._meta).toEqual({ [MAX_RESULT_SIZE_META]: 500_000 });
    expect(toolOf(Docs, "own").listing._meta).toEqual({ [MAX_RESULT_SIZE_META]: 7 });
    expect(toolOf(Docs, "plain").listing._meta).toBeUndefined();
  });
});
