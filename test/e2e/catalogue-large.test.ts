/**
 * A server with 200 tools under `catalogue: { search: true }`: what tools/list costs, how often
 * search_tools puts the right tool in its top 3 for a task described without the tool's name,
 * and that a found tool is callable by name, all through the SDK client.
 */
import { BpeTokenCounter } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GeneratedToolsModule, QUERIES } from "../support/generated-tools.js";

describe("catalogue search over 200 tools", () => {
  let client: TestClient;
  const counter = new BpeTokenCounter();
  beforeAll(async () => {
    client = await createTestClient(GeneratedToolsModule, {
      catalogue: { search: true, pinned: ["get_customer"] },
    });
  });
  afterAll(() => client.close());

  it("the scripted queries never name their tool", () => {
    expect(QUERIES).toHaveLength(50);
    for (const [query, tool] of QUERIES) {
      for (const word of tool.split("_")) expect(query.toLowerCase().split(/\W+/)).not.toContain(word);
    }
  });

  it("tools/list costs at most 1,000 tokens (all 200 listed cost far more)", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_customer", "search_tools"]);
    const tokensOf = async (value: unknown) => (await counter.count(JSON.stringify(value), 1_000_000)).tokens;
    const listed = await tokensOf(tools);
    // What the same server lists without search: every definition.
    const plain = await createTestClient(GeneratedToolsModule);
    const everyTool = [];
    let cursor: string | undefined;
    do {
      const page = await plain.listTools(cursor === undefined ? {} : { cursor });
      everyTool.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(everyTool).toHaveLength(200);
    const all = await tokensOf(everyTool);
    await plain.close();
    console.info(`tools/list: ${listed} tokens under search, ${all} tokens without`);
    expect(listed).toBeLessThanOrEqual(1000);
  });

  it("finds the right tool in the top 3 for at least 90 % of 50 tasks, and it is callable by name", async () => {
    const misses: string[] = [];
    for (const [query, tool] of QUERIES) {
      const result = await client.callTool({ name: "search_tools", arguments: { query, limit: 3 } });
      const names = (result.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      if (!names.includes(tool)) misses.push(`${query} → ${names.join(", ")} (wanted ${tool})`);
    }
    console.info(`search_tools top-3 hits: ${QUERIES.length - misses.length}/${QUERIES.length}`, misses);
    expect(QUERIES.length - misses.length).toBeGreaterThanOrEqual(45);
    const called = await client.callTool({ name: "archive_report", arguments: { id: "r1" } });
    expect(called.structuredContent).toEqual({ tool: "archive_report", input: { id: "r1" } });
  });
});
