import { describe, expect, it } from "vitest";
import {
  checkAppInterceptors,
  checkInterceptors,
  isInterceptorClass,
  resolveSpecs,
  type SpecContext,
} from "../../../src/builder/resolve-specs.js";
import type { MethodMetadata, ServiceMetadata } from "../../../src/metadata/definitions.js";

class Service {}
const context = (metadata: Partial<MethodMetadata>, more: Partial<SpecContext> = {}): SpecContext => ({
  where: "Service.list",
  kind: "tool",
  name: "list",
  modelVisible: true,
  serviceClass: Service,
  metadata: { memberKind: "method", ...metadata },
  classMetadata: {} as ServiceMetadata,
  appBudget: undefined,
  ...more,
});
class Audit {
  intercept() {
    return { content: [] };
  }
}

describe("resolveSpecs: @Budget", () => {
  it("takes the method's budget, else the class's, else the app's", () => {
    const classBudget = { budget: { tokens: 900, options: {} } };
    expect(resolveSpecs(context({ budget: { tokens: 300, options: { onExceed: "error" } } })).budget).toEqual(
      {
        tokens: 300,
        onExceed: "error",
      },
    );
    expect(resolveSpecs(context({}, { classMetadata: classBudget })).budget).toEqual({
      tokens: 900,
      onExceed: "auto",
    });
    expect(resolveSpecs(context({}, { appBudget: 2000 })).budget).toEqual({ tokens: 2000, onExceed: "auto" });
    expect(resolveSpecs(context({})).budget).toBeUndefined();
  });

  it("budgets no app-only tool, but still checks its class budget", () => {
    expect(resolveSpecs(context({}, { modelVisible: false, appBudget: 2000 })).budget).toBeUndefined();
    expect(() =>
      resolveSpecs(
        context({}, { modelVisible: false, classMetadata: { budget: { tokens: 0, options: {} } } }),
      ),
    ).toThrow("Service: @Budget `tokens` must be a positive whole number, not 0");
  });

  it("refuses an unknown onExceed", () => {
    expect(() =>
      resolveSpecs(context({ budget: { tokens: 5, options: { onExceed: "cut" as never } } })),
    ).toThrow('@Budget `onExceed` must be "auto" or "error", not "cut"');
  });
});

describe("resolveSpecs: @Ephemeral", () => {
  it("fills defaults: over budget only, owner scope, a 200-token preview, the tool's name", () => {
    expect(resolveSpecs(context({ ephemeral: {} })).spill).toEqual({
      when: "overBudget",
      ttl: undefined,
      mimeType: undefined,
      name: "list",
      description: undefined,
      scope: "owner",
      preview: 200,
    });
    expect(resolveSpecs(context({ ephemeral: { preview: false } })).spill?.preview).toBe(0);
    expect(resolveSpecs(context({ ephemeral: { preview: 50, when: "always" } })).spill).toMatchObject({
      preview: 50,
      when: "always",
    });
  });

  it("refuses it outside tools and a preview that is no number of tokens", () => {
    expect(() => resolveSpecs(context({ ephemeral: {} }, { kind: "resource" }))).toThrow(
      "Service.list: @Ephemeral applies to tools only",
    );
    expect(() => resolveSpecs(context({ ephemeral: { preview: "short" as never } }))).toThrow(
      '@Ephemeral `preview` must be true, false or a number of tokens, not "short"',
    );
  });
});

describe("interceptor checks", () => {
  it("lists the class's interceptors before the method's", () => {
    const instance = { intercept: () => ({ content: [] }) };
    const specs = resolveSpecs(
      context({ interceptors: [instance] }, { classMetadata: { interceptors: [Audit] } }),
    );
    expect(specs.interceptors).toEqual([Audit, instance]);
  });

  it("refuses what is neither an interceptor class nor an instance, naming where", () => {
    expect(checkInterceptors("Service.list", undefined)).toEqual([]);
    expect(() => checkInterceptors("Service.list", [class NotOne {}])).toThrow(
      "Service.list: @UseInterceptors takes interceptor classes or instances with an `intercept(call, next)` method, not a function (NotOne)",
    );
    expect(() => checkAppInterceptors(Audit)).toThrow(
      "McpFactory.create options: `interceptors` takes an array of interceptor classes, not a function (Audit)",
    );
  });

  it("isInterceptorClass is true for a class with an intercept method only", () => {
    expect(isInterceptorClass(Audit)).toBe(true);
    expect(isInterceptorClass(new Audit())).toBe(false);
    expect(isInterceptorClass(class {})).toBe(false);
    expect(isInterceptorClass(() => 1)).toBe(false);
  });
});
