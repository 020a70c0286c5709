import { describe, expect, it } from "vitest";
import { ToolSearch, wordsOf } from "../../../src/catalogue/tool-search.js";
import type { ToolDefinition } from "../../../src/pipeline/operation.js";

/** A built tool as the index reads it: its name and listing. */
const tool = (name: string, description: string, parameters: string[] = [], title?: string) =>
  ({
    name,
    listing: {
      name,
      description,
      ...(title ? { title } : {}),
      inputSchema: { type: "object", properties: Object.fromEntries(parameters.map((p) => [p, {}])) },
    },
  }) as unknown as ToolDefinition;

const TOOLS = [
  tool("list_issues", "List the issues of a repository", ["repository", "state"]),
  tool("create_issue", "Open a new issue", ["repository", "title", "body"]),
  tool("get_weather", "Current conditions", ["city"]),
  tool("sendEmail", "Deliver a message", ["to", "subject"], "Send email"),
];

describe("wordsOf", () => {
  it("splits snake_case, camelCase, kebab-case and prose alike", () => {
    expect(wordsOf("list_pull_requests")).toEqual(["list", "pull", "requests"]);
    expect(wordsOf("listPullRequests")).toEqual(["list", "Pull", "Requests"]);
    expect(wordsOf("list-pull requests, now!")).toEqual(["list", "pull", "requests", "now"]);
  });
});

describe("ToolSearch", () => {
  it("ranks on names first, then titles, parameter names and descriptions", async () => {
    const search = await ToolSearch.build(TOOLS);
    expect(search.rank("issues")[0]).toBe("list_issues");
    expect(search.rank("create issue")[0]).toBe("create_issue");
    expect(search.rank("city")).toEqual(["get_weather"]);
    expect(search.rank("email")).toEqual(["sendEmail"]);
  });

  it("matches prefixes and small typos, and drops stop words", async () => {
    const search = await ToolSearch.build(TOOLS);
    expect(search.rank("weath")).toEqual(["get_weather"]);
    expect(search.rank("wether")).toContain("get_weather");
    expect(search.rank("the of a")).toEqual([]);
  });
});
