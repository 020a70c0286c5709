import { createTestClient, McpModule, McpService, Resource, Tool } from "frugal-mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";

/** An abstract base service: subclasses supply the data source. */
abstract class BaseLogService {
  protected abstract lines(): string[];

  @Tool({ description: "Search the logs", input: { term: z.string() } })
  searchLogs({ term }: { term: string }) {
    return this.lines().filter((line) => line.includes(term));
  }

  @Tool({ description: "Count the logs" })
  countLogs() {
    return { count: this.lines().length };
  }

  @Tool({ description: "Tail the logs" })
  tail() {
    return this.lines().slice(-1);
  }

  @Resource("logs://all")
  all() {
    return this.lines().join("\n");
  }
}

@McpService()
class AppLogService extends BaseLogService {
  protected lines() {
    return ["boot ok", "request a", "request b"];
  }

  // Override without decorators: keeps the parent's @Tool metadata, runs the new body.
  override countLogs() {
    return { count: this.lines().length * 10 };
  }

  // Re-decorated: replaces the parent's metadata as a whole.
  @Tool({ name: "tail_last_two", description: "Last two lines" })
  override tail() {
    return this.lines().slice(-2);
  }
}

@McpModule({ services: [AppLogService] })
class LogsModule {}

describe("subclassing", () => {
  it("inherits decorated methods, keeps metadata on plain overrides, and replaces it on re-decoration", async () => {
    const t = await createTestClient(LogsModule);
    const { tools } = await t.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["count_logs", "search_logs", "tail_last_two"]);
    expect(tools.find((tool) => tool.name === "tail_last_two")?.description).toBe("Last two lines");
    const search = await t.client.callTool({ name: "search_logs", arguments: { term: "request" } });
    expect(search.content).toEqual([{ type: "text", text: '["request a","request b"]' }]);
    const count = await t.client.callTool({ name: "count_logs", arguments: {} });
    expect(count.structuredContent).toEqual({ count: 30 });
    const tail = await t.client.callTool({ name: "tail_last_two", arguments: {} });
    expect(tail.content).toEqual([{ type: "text", text: '["request a","request b"]' }]);
    const all = await t.client.readResource({ uri: "logs://all" });
    expect((all.contents[0] as { text?: string }).text).toBe("boot ok\nrequest a\nrequest b");
    await t.close();
  });
});

describe("class-level metadata", () => {
  it("is inherited per slot: a subclass's @McpService keeps its parent's class @Budget", async () => {
    const { Budget } = await import("frugal-mcp");
    @Budget(20)
    @McpService()
    class BaseReport {
      @Tool()
      report() {
        return "word ".repeat(100);
      }
    }
    @McpService()
    class SubReport extends BaseReport {}
    @McpModule({ services: [SubReport] })
    class ReportModule {}
    const t = await createTestClient(ReportModule);
    expect((await t.callTool({ name: "report", arguments: {} })).structuredContent).toMatchObject({
      error: "OUTPUT_BUDGET_EXCEEDED",
      budget: 20,
    });
    await t.close();
  });
});
