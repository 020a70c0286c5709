import { describe, expect, it } from "vitest";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Prompt } from "../../../src/decorators/prompt.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { operationName } from "../../../src/pipeline/operation.js";
import { promptOf, resourceOf, toolOf } from "../../support/unit-build.js";

@McpService()
class Articles {
  @Tool() listArticles() {}
  @Resource("articles://{site}") bySite() {}
  @Prompt({ name: "review" }) reviewPrompt() {
    return "";
  }
}

describe("operationName", () => {
  it("is a tool's or prompt's name and a resource's URI (template)", () => {
    expect(operationName(toolOf(Articles, "list_articles"))).toBe("list_articles");
    expect(operationName(promptOf(Articles, "review"))).toBe("review");
    const resource = resourceOf(Articles, "articles://{site}");
    expect(resource.name).toBe("by_site");
    expect(operationName(resource)).toBe("articles://{site}");
  });
});
