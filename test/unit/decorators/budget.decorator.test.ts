import { describe, expect, it } from "vitest";
import { Budget } from "../../../src/decorators/budget.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";

describe("@Budget", () => {
  it("on a class records the service's default budget; on a method, the method's own", () => {
    @Budget(2000)
    class LogsService {
      @Budget(500, { onExceed: "error" }) summary() {}
      tail() {}
    }
    expect(metadataStore.service(LogsService)?.budget).toEqual({ tokens: 2000, options: {} });
    expect(metadataStore.ownMethod(LogsService.prototype, "summary")).toEqual({
      memberKind: "method",
      budget: { tokens: 500, options: { onExceed: "error" } },
    });
    expect(metadataStore.ownMethod(LogsService.prototype, "tail")).toBeUndefined();
  });

  it("is inherited by a subclass that declares no budget of its own", () => {
    @Budget(800)
    class Base {}
    class Child extends Base {}
    expect(metadataStore.service(Child)?.budget?.tokens).toBe(800);
  });

  it("copies its options, so changing them afterwards does not change the budget", () => {
    const options: { onExceed: "auto" | "error" } = { onExceed: "error" };
    class S {
      @Budget(100, options) list() {}
    }
    options.onExceed = "auto";
    expect(metadataStore.ownMethod(S.prototype, "list")?.budget?.options).toEqual({ onExceed: "error" });
  });
});
