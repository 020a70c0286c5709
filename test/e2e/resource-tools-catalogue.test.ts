/**
 * What the built-in resource tools cost in `tools/list`, in o200k tokens counted by the
 * real tokenizer (src/tokenizer): every listed tool costs every model call its tokens.
 * Before issue 25: read_resource 189, search_resource 280. Issue 25 added query_resource
 * and search_resource's `count` and `fields` (read_resource 189, search_resource 318,
 * query_resource 390). Issue 26 made them lean (no bounds that bound nothing, no
 * `additionalProperties: false`, shorter descriptions): 145, 254 and 372. Windows inside long
 * values (issue 24) then added read_resource's `index` and `path` and search_resource's
 * `context` and `whole`: 205, 302 and 372. Issue 26's second pass (a union of plain types as
 * one type list, no `default: false` on a flag, shorter `uri`, `offset` and `aggregate`
 * descriptions, none on `select`): 195, 267 and 311; the ceilings hold them there.
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

const CEILINGS: Record<string, number> = { read_resource: 200, search_resource: 275, query_resource: 315 };

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
