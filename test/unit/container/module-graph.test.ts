import { describe, expect, it } from "vitest";
import { collectModuleGraph } from "../../../src/container/module-graph.js";
import { McpModule, type ProviderEntry } from "../../../src/decorators/mcp-module.decorator.js";
import { FrugalConfigError } from "../../../src/errors/config-error.js";

const token = (name: string, value: unknown): ProviderEntry => ({ provide: name, useValue: value });
const values = (providers: ProviderEntry[]) => providers.map((p) => (p as { useValue: unknown }).useValue);

describe("collectModuleGraph", () => {
  it("collects a lone module's services and providers", () => {
    class S1 {}
    class S2 {}
    class P {}
    @McpModule({ services: [S1, S2], providers: [P, token("x", 1)] })
    class Root {}
    const graph = collectModuleGraph(Root);
    expect(graph.services).toEqual([S1, S2]);
    expect(graph.providers).toEqual([P, { provide: "x", useValue: 1 }]);
  });

  it("accepts a module declared with no options", () => {
    @McpModule({})
    class Empty {}
    expect(collectModuleGraph(Empty)).toEqual({ services: [], providers: [], listedBy: new Map() });
  });

  it("puts imported modules first, depth-first, so the importer's providers override theirs", () => {
    class SLeaf {}
    class SMid {}
    class SRoot {}
    @McpModule({ services: [SLeaf], providers: [token("db", "leaf")] })
    class Leaf {}
    @McpModule({ services: [SMid], providers: [token("db", "mid")], imports: [Leaf] })
    class Mid {}
    @McpModule({ services: [SRoot], providers: [token("db", "root")], imports: [Mid] })
    class Root {}
    const graph = collectModuleGraph(Root);
    expect(graph.services).toEqual([SLeaf, SMid, SRoot]);
    expect(values(graph.providers)).toEqual(["leaf", "mid", "root"]);
  });

  it("counts a module imported twice once (a diamond)", () => {
    class Shared {}
    @McpModule({ services: [Shared], providers: [token("t", "shared")] })
    class Base {}
    @McpModule({ providers: [token("t", "left")], imports: [Base] })
    class Left {}
    @McpModule({ providers: [token("u", "right")], imports: [Base] })
    class Right {}
    @McpModule({ imports: [Left, Right] })
    class Root {}
    const graph = collectModuleGraph(Root);
    expect(graph.services).toEqual([Shared]);
    expect(values(graph.providers)).toEqual(["shared", "left", "right"]);
    expect(graph.listedBy).toEqual(
      new Map<unknown, Function>([
        [Shared, Base],
        ["t", Left],
        ["u", Right],
      ]),
    );
  });

  it("refuses two sibling modules that provide one token, naming both, the token and the fix", () => {
    const GREETING = Symbol("GREETING");
    class Repo {}
    @McpModule({ providers: [{ provide: GREETING, useValue: "hi" }, Repo] })
    class Left {}
    @McpModule({ providers: [{ provide: GREETING, useValue: "hello" }] })
    class Right {}
    @McpModule({ imports: [Left, Right] })
    class Root {}
    expect(() => collectModuleGraph(Root)).toThrow(
      "Left and Right: both provide Symbol(GREETING), and neither imports the other, so neither overrides the other. Fix: provide Symbol(GREETING) in only one of them, or also in a module that imports both, such as Root (an importer's provider wins).",
    );

    @McpModule({ providers: [{ provide: "db", useClass: Repo }] })
    class Deep {}
    @McpModule({ imports: [Deep] })
    class Middle {}
    @McpModule({ providers: [{ provide: "db", useFactory: () => new Repo() }] })
    class Other {}
    @McpModule({ imports: [Middle, Other] })
    class App {}
    expect(() => collectModuleGraph(App)).toThrow(
      'Deep and Other: both provide "db", and neither imports the other, so neither overrides the other. Fix: provide "db" in only one of them, or also in a module that imports both, such as App (an importer\'s provider wins).',
    );
  });

  it("lets a module that imports both siblings settle their token, and accepts one class listed by both", () => {
    class Repo {}
    @McpModule({ providers: [token("t", "left"), Repo] })
    class Left {}
    @McpModule({ providers: [token("t", "right"), Repo] })
    class Right {}
    @McpModule({ imports: [Left, Right], providers: [token("t", "root")] })
    class Root {}
    const graph = collectModuleGraph(Root);
    expect(
      graph.providers
        .filter((p) => typeof p !== "function")
        .map((p) => (p as { useValue: unknown }).useValue),
    ).toEqual(["left", "right", "root"]);
    expect(graph.listedBy.get("t")).toBe(Root);
    expect(graph.listedBy.get(Repo)).toBe(Right);
  });

  it("lists a service served by two modules once", () => {
    class Service {}
    @McpModule({ services: [Service] })
    class A {}
    @McpModule({ services: [Service], imports: [A] })
    class Root {}
    expect(collectModuleGraph(Root).services).toEqual([Service]);
  });

  it("survives an import cycle", () => {
    class SA {}
    class SB {}
    class B {}
    @McpModule({ services: [SA], providers: [token("t", "a")], imports: [B] })
    class A {}
    // B imports A back; applied by hand, as one class cannot name the other before it exists.
    McpModule({ services: [SB], providers: [token("t", "b")], imports: [A] })(B);
    const graph = collectModuleGraph(A);
    expect(graph.services).toEqual([SB, SA]);
    expect(values(graph.providers)).toEqual(["b", "a"]);
  });

  it("refuses a root that is not a module, naming it and the fix", () => {
    class Plain {}
    expect(() => collectModuleGraph(Plain)).toThrow(FrugalConfigError);
    expect(() => collectModuleGraph(Plain)).toThrow(
      "Plain: this class is not decorated with @McpModule. Fix: add @McpModule({ services, providers, imports }) to it.",
    );
  });

  it("refuses an import that is not a module, naming the importer", () => {
    class Plain {}
    @McpModule({ imports: [Plain] })
    class Root {}
    expect(() => collectModuleGraph(Root)).toThrow(
      /^Root imports Plain: this class is not decorated with @McpModule/,
    );
  });

  // An import that is `undefined` (a circular ES import evaluated too early) is named, not a bare TypeError.
  it("refuses an undefined import with a FrugalConfigError", () => {
    @McpModule({ imports: [undefined as never] })
    class Root {}
    expect(() => collectModuleGraph(Root)).toThrow(FrugalConfigError);
  });
});
