import { describe, expect, it } from "vitest";
import type { RecordedCapability } from "../../../src/metadata/definitions.js";
import { metadataStore } from "../../../src/metadata/store.js";

const capability = (name: string, options: unknown): RecordedCapability => ({
  capability: { name, decorator: `@${name}` },
  options,
});

describe("metadataStore: methods", () => {
  it("merges slots into one frozen record per method and remembers the decorated names", () => {
    class S {
      list() {}
    }
    metadataStore.writeMethod(S.prototype, "list", "method", { tool: { name: "list" } });
    metadataStore.writeMethod(S.prototype, "list", "method", { interceptors: [Object] });
    metadataStore.writeMethod(S.prototype, "total", "field", { tool: {} });
    const record = metadataStore.ownMethod(S.prototype, "list");
    expect(record).toEqual({
      memberKind: "method",
      tool: { name: "list" },
      interceptors: [Object],
    });
    expect(Object.isFrozen(record)).toBe(true);
    expect([...metadataStore.ownMembers(S.prototype)]).toEqual(["list", "total"]);
  });

  it("keeps a getter a getter when a later decorator guessed 'method'", () => {
    class S {}
    metadataStore.writeMethod(S.prototype, "value", "getter", { tool: {} });
    metadataStore.writeMethod(S.prototype, "value", "method", { interceptors: [] });
    expect(metadataStore.ownMethod(S.prototype, "value")?.memberKind).toBe("getter");
  });

  it("never alters a parent's record when a subclass decorates the same method", () => {
    class Parent {
      list() {}
    }
    class Child extends Parent {}
    metadataStore.writeMethod(Parent.prototype, "list", "method", { tool: { name: "parent" } });
    metadataStore.writeMethod(Child.prototype, "list", "method", { tool: { name: "child" } });
    expect(metadataStore.ownMethod(Parent.prototype, "list")?.tool).toEqual({ name: "parent" });
    expect(metadataStore.ownMethod(Child.prototype, "list")?.tool).toEqual({ name: "child" });
    expect([...metadataStore.ownMembers(Parent.prototype)]).toEqual(["list"]);
  });

  it("records each capability once, the last write of the same capability replacing its options", () => {
    class S {}
    metadataStore.writeCapability(S.prototype, "m", "method", capability("rateLimit", { limit: 1 }));
    metadataStore.writeCapability(S.prototype, "m", "method", capability("audit", true));
    metadataStore.writeCapability(S.prototype, "m", "method", capability("rateLimit", { limit: 9 }));
    const recorded = metadataStore.ownMethod(S.prototype, "m")?.capabilities ?? [];
    expect(recorded.map((entry) => [entry.capability.name, entry.options])).toEqual([
      ["audit", true],
      ["rateLimit", { limit: 9 }],
    ]);
    expect(Object.isFrozen(recorded)).toBe(true);
  });
});

describe("metadataStore: classes and modules", () => {
  it("reads class slots from the nearest class that declared each", () => {
    class Base {}
    class Mid extends Base {}
    class Leaf extends Mid {}
    metadataStore.writeService(Base, {
      interceptors: [Object],
      service: { toolPrefix: "base_" },
    });
    metadataStore.writeService(Leaf, { service: { toolPrefix: "leaf_" } });
    expect(metadataStore.service(Leaf)).toEqual({
      interceptors: [Object],
      service: { toolPrefix: "leaf_" },
    });
    expect(metadataStore.ownService(Mid)).toBeUndefined();
    expect(metadataStore.service(Mid)?.service).toEqual({ toolPrefix: "base_" });
    expect(metadataStore.service(class Plain {})).toBeUndefined();
  });

  it("merges class writes on one class instead of replacing them", () => {
    class S {}
    metadataStore.writeService(S, { interceptors: [Object] });
    metadataStore.writeService(S, { service: {} });
    expect(metadataStore.ownService(S)).toEqual({ interceptors: [Object], service: {} });
  });

  it("reads class capabilities by name: a subclass's record of one hides only its parent's of that one", () => {
    class Base {}
    class Leaf extends Base {}
    metadataStore.writeServiceCapability(Base, capability("budget", { tokens: 2000 }));
    metadataStore.writeServiceCapability(Base, capability("audit", true));
    metadataStore.writeServiceCapability(Leaf, capability("budget", { tokens: 500 }));
    metadataStore.writeService(Leaf, { service: {} });
    const recorded = metadataStore.service(Leaf)?.capabilities ?? [];
    expect(recorded.map((entry) => [entry.capability.name, entry.options])).toEqual([
      ["budget", { tokens: 500 }],
      ["audit", true],
    ]);
    expect(metadataStore.service(Base)?.capabilities?.map((entry) => entry.options)).toEqual([
      { tokens: 2000 },
      true,
    ]);
  });

  it("stores module options on exactly the module class", () => {
    class AppModule {}
    class Derived extends AppModule {}
    metadataStore.writeModule(AppModule, { services: [] });
    expect(metadataStore.module(AppModule)).toEqual({ services: [] });
    expect(metadataStore.module(Derived)).toBeUndefined();
  });
});
