import { describe, expect, it } from "vitest";
import type { Registry } from "../../../src/builder/registry.js";
import { Catalogue, unknownName } from "../../../src/catalogue/catalogue.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";
import type { Logger } from "../../../src/logging/logger.js";
import type { OperationCaller, VisibleTo } from "../../../src/metadata/definitions.js";
import type { ToolDefinition } from "../../../src/pipeline/operation.js";

const warnings: string[] = [];
const logger: Logger = { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} };
const caller: OperationCaller = { auth: undefined, owner: "session:s1", sessionId: "s1" };

const tool = (name: string, visibleTo?: VisibleTo) => ({
  definition: {
    kind: "tool",
    name,
    where: `S.${name}`,
    visibleTo,
    modelVisible: true,
    capabilities: new Map(),
  } as unknown as ToolDefinition,
  execute: async () => undefined,
});

function attached(tools: ReturnType<typeof tool>[], settings = { search: false, pinned: [] as string[] }) {
  const registry = {
    tools: new Map(tools.map((t) => [t.definition.name, t])),
    prompts: new Map(),
    staticResources: new Map(),
    templates: [],
  } as unknown as Registry;
  const catalogue = new Catalogue(settings);
  catalogue.attach(registry, new InMemoryEventBus(), logger);
  return catalogue;
}

describe("Catalogue.admits", () => {
  it("answers synchronously without a rule, and asks a rule with the caller", async () => {
    const seen: OperationCaller[] = [];
    const catalogue = attached([]);
    expect(catalogue.admits(tool("open").definition, () => caller)).toBe(true);
    const ruled = tool("ruled", (c) => {
      seen.push(c);
      return c.owner === "session:s1";
    });
    expect(catalogue.admits(ruled.definition, () => caller)).toBe(true);
    expect(seen).toEqual([caller]);
    expect(await catalogue.admits(tool("later", async () => false).definition, () => caller)).toBe(false);
  });

  it("hides an operation whose rule throws or answers anything but true, and logs the throw", async () => {
    const catalogue = attached([]);
    const throwing = tool("throwing", () => {
      throw new Error("no database");
    });
    expect(catalogue.admits(throwing.definition, () => caller)).toBe(false);
    expect(
      await catalogue.admits(
        tool("rejecting", () => Promise.reject(new Error("x"))).definition,
        () => caller,
      ),
    ).toBe(false);
    expect(catalogue.admits(tool("vague", (() => "yes") as never).definition, () => caller)).toBe(false);
    expect(warnings.filter((w) => w.includes("a visibility rule threw"))).toHaveLength(2);
  });

  it("asks every rule, visibleTo and capabilities' visible hooks, and admits only when all say true", async () => {
    const catalogue = attached([]);
    const scoped = (scope: string, visibleTo?: VisibleTo) => {
      const capability = {
        name: "scope",
        decorator: "@Scope",
        visible: async (spec: string) => spec === "open",
      };
      const base = tool(`needs_${scope}`, visibleTo).definition;
      return { ...base, capabilities: new Map([[capability, scope]]) } as unknown as ToolDefinition;
    };
    expect(await catalogue.admits(scoped("open"), () => caller)).toBe(true);
    expect(await catalogue.admits(scoped("closed"), () => caller)).toBe(false);
    expect(
      await catalogue.admits(
        scoped("open", () => false),
        () => caller,
      ),
    ).toBe(false);
  });

  it("refuses a disabled tool until it is enabled again", async () => {
    const echo = tool("echo");
    const catalogue = attached([echo]);
    await catalogue.control.disable("echo");
    expect(catalogue.admits(echo.definition, () => caller)).toBe(false);
    await catalogue.control.enable("echo");
    expect(catalogue.admits(echo.definition, () => caller)).toBe(true);
  });
});

describe("Catalogue lists and changes", () => {
  it("lists the pinned tools and the search tool under search", async () => {
    const catalogue = attached([tool("a"), tool("b"), tool("search_tools")], { search: true, pinned: ["b"] });
    const listed = await catalogue.listedTools(() => caller);
    expect(listed.map((t) => t.definition.name)).toEqual(["b", "search_tools"]);
  });

  it("tells the app which lists changed, on every change", async () => {
    const catalogue = attached([tool("echo")]);
    const changes: string[][] = [];
    catalogue.onListsChanged = async (lists) => void changes.push([...lists]);
    await catalogue.control.enable("echo");
    await catalogue.control.disable("echo");
    expect(changes).toEqual([["tools"], ["tools"]]);
  });

  it("fails at attach on an unknown pinned name", () => {
    expect(() => attached([tool("get_status")], { search: true, pinned: ["get_stats"] })).toThrow(
      'did you mean "get_status"?',
    );
  });

  it("names close names, or some of the names, in the unknown-name error", () => {
    expect(unknownName("app.catalogue.enable", "ecko", ["echo", "greet"])).toBe(
      'app.catalogue.enable("ecko"): no tool, prompt or resource is named "ecko"; did you mean "echo"?',
    );
    expect(unknownName("app.catalogue.enable", 42, ["echo"])).toContain('the names are "echo"');
  });
});
