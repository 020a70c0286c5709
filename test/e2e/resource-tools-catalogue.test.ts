/**
 * What the built-in resource tools cost in `tools/list`, in o200k tokens counted by the
 * real tokenizer (src/tokenizer): every listed tool costs every model call its tokens.
 * Before issue 25: read_resource 189, search_resource 280. Issue 25 added query_resource
 * and search_resource's `count` and `fields`; the ceilings hold them near what they cost
 * then (read_resource 189, search_resource 318, query_resource 390). Windows inside long
 * values (issue 24) added read_resource's `index` and `path` and search_resource's `context`
 * and `whole` (read_resource 237, search_resource 359).
 */
import { BpeTokenCounter, McpModule, McpService, Tool } from "frugal-mcp";
import { createTestClient } from "frugal-mcp/testing";
import { expect, it } from "vitest";

@McpService()
class NoopService {
  @Tool({ description: "noop" })
  noop() {
    return "ok";
  }
}

@McpModule({ services: [NoopService] })
class NoopModule {}

const CEILINGS: Record<string, number> = { read_resource: 240, search_resource: 362, query_resource: 400 };

it("lists the resource tools within their token ceilings", async () => {
  const t = await createTestClient(NoopModule, { ephemeral: { tools: true } });
  try {
    const { tools } = await t.listTools();
    const counter = new BpeTokenCounter();
    const costs: Record<string, number> = {};
    for (const tool of tools) costs[tool.name] = (await counter.count(JSON.stringify(tool), 1e9)).tokens;
    console.log(`[figures] tools/list tokens per resource tool: ${JSON.stringify(costs)}`);
    for (const [name, ceiling] of Object.entries(CEILINGS))
      expect(costs[name], name).toBeLessThanOrEqual(ceiling);
  } finally {
    await t.close();
  }
});
