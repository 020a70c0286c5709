import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { McpAppOptions } from "../../../src/app/app-options.js";
import { Budget } from "../../../src/budget/budget.capability.js";
import { Catalogue } from "../../../src/catalogue/catalogue.js";
import { checkCatalogueOptions } from "../../../src/catalogue/catalogue-options.js";
import { createAppContainer } from "../../../src/container/app-container.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { specOf } from "../../../src/pipeline/capability.js";
import { appPartsOf } from "../../../src/runtime/app-parts.js";
import { buildAppRegistry } from "../../../src/runtime/app-registry.js";
import { frameworkProviders } from "../../../src/runtime/framework-providers.js";

@McpService()
class Hello {
  @Tool({ input: { name: z.string() } }) hello({ name }: { name: string }) {
    return `hello ${name}`;
  }
}

function registryOf(options: Partial<McpAppOptions>, budget?: number) {
  const appOptions: McpAppOptions = { name: "t", version: "1", ...options };
  const container = createAppContainer(frameworkProviders(), [Hello]);
  const graph = { services: [Hello], providers: [], listedBy: new Map() };
  const parts = appPartsOf(container, graph, appOptions, budget, () => {});
  const catalogue = new Catalogue(checkCatalogueOptions(appOptions.catalogue));
  return buildAppRegistry(
    parts,
    graph.services,
    appOptions,
    { budget, text: undefined, catalogue },
    { appInterceptors: [], interceptorOf: () => ({ intercept: (_call, next) => next() }) },
  );
}

describe("buildAppRegistry", () => {
  it("registers the module's services, and the framework's tools only when the app serves them", () => {
    expect([...registryOf({}).tools.keys()]).toEqual(["hello"]);
    expect([...registryOf({ ephemeral: { tools: true } }).tools.keys()]).toEqual(
      expect.arrayContaining(["hello", "read_resource", "search_resource", "query_resource"]),
    );
    expect([...registryOf({ catalogue: { search: true } }).tools.keys()]).toEqual(
      expect.arrayContaining(["hello", "search_tools"]),
    );
  });

  it("makes the app's budget every operation's budget", () => {
    const tool = registryOf({}, 300).tools.get("hello");
    expect(tool && specOf(tool.definition, Budget.capability)?.tokens).toBe(300);
    const unbudgeted = registryOf({}).tools.get("hello");
    expect(unbudgeted && specOf(unbudgeted.definition, Budget.capability)?.tokens).toBeUndefined();
  });
});
