import { describe, expect, it } from "vitest";
import type { Registry } from "../../../../src/builder/registry.js";
import { findDeclaredResource } from "../../../../src/protocol/operations/declared-resources.js";
import { UriTemplate } from "../../../../src/uri/uri-template.js";

const op = (name: string, template?: string) => ({
  definition: { name, ...(template ? { template: new UriTemplate(template) } : {}) },
  execute: async () => undefined,
});
const staticConfig = op("config");
const article = op("article", "articles://{id}");
const anyDoc = op("any", "articles://{id}{?rev}");
const registry = {
  tools: new Map(),
  prompts: new Map(),
  staticResources: new Map([["articles://index", staticConfig]]),
  templates: [article, anyDoc],
} as unknown as Registry;

describe("findDeclaredResource", () => {
  it("finds a static resource by its exact URI before any template", () => {
    expect(findDeclaredResource(registry, "articles://index")).toEqual({ operation: staticConfig, args: {} });
  });

  it("finds the first template that matches, with its variables", () => {
    expect(findDeclaredResource(registry, "articles://a1")).toEqual({
      operation: article,
      args: { id: "a1" },
    });
  });

  it("finds nothing for a URI no resource declares", () => {
    expect(findDeclaredResource(registry, "other://a1")).toBeUndefined();
  });
});
