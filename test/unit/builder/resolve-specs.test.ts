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
  serviceClass: Service,
  metadata: { memberKind: "method", ...metadata },
  classMetadata: {} as ServiceMetadata,
  ...more,
});
class Audit {
  intercept() {
    return { content: [] };
  }
}

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
