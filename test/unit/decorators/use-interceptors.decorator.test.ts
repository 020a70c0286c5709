import { describe, expect, it } from "vitest";
import { UseInterceptors } from "../../../src/decorators/use-interceptors.decorator.js";
import { metadataStore } from "../../../src/metadata/store.js";
import type { Interceptor } from "../../../src/pipeline/interceptor.js";

class AuditLog implements Interceptor {
  intercept(_call: unknown, next: () => Promise<never>) {
    return next();
  }
}
class RequireScope extends AuditLog {}
const instance = new RequireScope();

describe("@UseInterceptors", () => {
  it("records class interceptors on the class and method interceptors on the method, in the order given", () => {
    @UseInterceptors(AuditLog)
    class Articles {
      @UseInterceptors(RequireScope, instance) publish() {}
    }
    expect(metadataStore.service(Articles)?.interceptors).toEqual([AuditLog]);
    expect(metadataStore.ownMethod(Articles.prototype, "publish")?.interceptors).toEqual([
      RequireScope,
      instance,
    ]);
  });

  it("adds up two decorators on one member in reading order, the upper one first", () => {
    @UseInterceptors(AuditLog)
    @UseInterceptors(RequireScope)
    class Articles {
      @UseInterceptors(RequireScope)
      @UseInterceptors(AuditLog)
      publish() {}
    }
    expect(metadataStore.service(Articles)?.interceptors).toEqual([AuditLog, RequireScope]);
    expect(metadataStore.ownMethod(Articles.prototype, "publish")?.interceptors).toEqual([
      RequireScope,
      AuditLog,
    ]);
  });

  it("on a subclass's re-declared member replaces the parent's list instead of adding to it", () => {
    class Parent {
      @UseInterceptors(AuditLog) publish() {}
    }
    class Child extends Parent {
      @UseInterceptors(RequireScope) override publish() {}
    }
    expect(metadataStore.ownMethod(Child.prototype, "publish")?.interceptors).toEqual([RequireScope]);
    expect(metadataStore.ownMethod(Parent.prototype, "publish")?.interceptors).toEqual([AuditLog]);
  });
});
