import { describe, expect, it } from "vitest";
import { Budget } from "../../../src/budget/budget.capability.js";
import { scanService } from "../../../src/builder/scan-service.js";
import { Cached } from "../../../src/cache/cached.capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Prompt } from "../../../src/decorators/prompt.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";

/** The scan as `property -> declaring class name`, for compact assertions. */
const declared = (serviceClass: Function) =>
  Object.fromEntries(scanService(serviceClass).map((m) => [String(m.property), m.declaredOn.name]));
const member = (serviceClass: Function, property: string | symbol) => {
  const found = scanService(serviceClass).find((m) => m.property === property);
  if (!found) throw new Error(`${String(property)} not scanned`);
  return found;
};

describe("scanService", () => {
  it("finds every decorated method with its metadata, and skips the rest", () => {
    @McpService()
    class Articles {
      @Tool({ description: "list" }) list() {}
      @Resource("articles://{id}") article() {}
      @Prompt() review() {}
      helper() {}
    }
    expect(declared(Articles)).toEqual({ list: "Articles", article: "Articles", review: "Articles" });
    expect(member(Articles, "list").metadata).toEqual({
      memberKind: "method",
      tool: { description: "list" },
    });
    expect(member(Articles, "article").metadata.resource).toEqual({ uri: "articles://{id}", options: {} });
    expect(member(Articles, "list").declaredOn).toBe(Articles);
  });

  it("finds nothing on a class without decorated members", () => {
    class Plain {
      method() {}
    }
    expect(scanService(Plain)).toEqual([]);
  });

  it("merges stacked decorators into one record, in any order", () => {
    class S {
      @Tool()
      @Paginated("id", { limit: 5 })
      @Budget(300)
      list() {}
      @Budget(300)
      @Paginated("id", { limit: 5 })
      @Tool()
      other() {}
    }
    const expected = {
      memberKind: "method",
      tool: {},
      // Each capability once, whatever the decorators' order (the order of records does not matter).
      capabilities: expect.arrayContaining([
        { capability: Budget.capability, options: { tokens: 300, options: {} } },
        { capability: Paginated.capability, options: { stableKey: ["id"], options: { limit: 5 } } },
      ]),
    };
    expect(member(S, "list").metadata).toEqual(expected);
    expect(member(S, "other").metadata).toEqual(expected);
    expect(member(S, "list").metadata.capabilities).toHaveLength(2);
    expect(member(S, "other").metadata.capabilities).toHaveLength(2);
  });

  it("reports getters so the builder can refuse them", () => {
    class S {
      // @ts-expect-error: the compiler refuses a decorated getter too
      @Tool()
      get value() {
        return 1;
      }
    }
    expect(member(S, "value").metadata.memberKind).toBe("getter");
  });

  it("finds symbol-keyed methods", () => {
    const key = Symbol("hidden");
    class S {
      @Tool() [key]() {}
    }
    expect(scanService(S).map((m) => m.property)).toEqual([key]);
  });

  it("inherits the parent's decorated methods", () => {
    class Base {
      @Tool() ping() {}
    }
    class Child extends Base {
      @Tool() pong() {}
    }
    expect(declared(Child)).toEqual({ ping: "Base", pong: "Child" });
    expect(declared(Base)).toEqual({ ping: "Base" });
  });

  it("keeps the parent's metadata for an override without decorators", () => {
    class Base {
      @Tool({ name: "base_list" })
      @Cached({ ttl: 1_000 })
      list() {
        return "base";
      }
    }
    class Child extends Base {
      override list() {
        return "child";
      }
    }
    const found = member(Child, "list");
    expect(found.declaredOn).toBe(Base);
    expect(found.metadata).toEqual({
      memberKind: "method",
      tool: { name: "base_list" },
      capabilities: [{ capability: Cached.capability, options: { ttl: 1_000 } }],
    });
  });

  it("replaces the parent's metadata as a whole when an override is re-decorated", () => {
    class Base {
      @Tool({ name: "base_list" })
      @Cached({ ttl: 1_000 })
      list() {}
    }
    class Child extends Base {
      @Tool({ name: "child_list" }) override list() {}
    }
    const found = member(Child, "list");
    expect(found.declaredOn).toBe(Child);
    expect(found.metadata).toEqual({ memberKind: "method", tool: { name: "child_list" } });
    // The parent's own record is untouched.
    expect(member(Base, "list").metadata.capabilities).toEqual([
      { capability: Cached.capability, options: { ttl: 1_000 } },
    ]);
  });

  it("takes the nearest decorated class in a longer chain", () => {
    class A {
      @Tool({ name: "a" }) m() {}
      @Tool({ name: "a2" }) n() {}
    }
    class B extends A {
      @Tool({ name: "b" }) override m() {}
    }
    class C extends B {
      override m() {}
      override n() {}
    }
    expect(declared(C)).toEqual({ m: "B", n: "A" });
    expect(member(C, "m").metadata.tool).toEqual({ name: "b" });
    expect(scanService(C)).toHaveLength(2);
  });

  it("sees a subclass that decorated an inherited method without redefining it", () => {
    class Base {
      helper() {}
    }
    class Child extends Base {}
    Tool({ name: "exposed" })(
      Child.prototype,
      "helper",
      Object.getOwnPropertyDescriptor(Base.prototype, "helper") as PropertyDescriptor,
    );
    expect(member(Child, "helper").declaredOn).toBe(Child);
    expect(scanService(Base)).toEqual([]);
  });

  it("reports decorated fields, which live on instances, so the builder can refuse them", () => {
    class Base {
      // @ts-expect-error: the compiler refuses a decorated field too
      @Tool() handler = () => 1;
    }
    class Child extends Base {}
    expect(member(Base, "handler").metadata.memberKind).toBe("field");
    expect(member(Child, "handler").declaredOn).toBe(Base);
  });
});
