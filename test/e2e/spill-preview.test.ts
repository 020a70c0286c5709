/** A stored result's summary and preview are sized in tokens: 200 by default, `preview: n`, or none. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  BpeTokenCounter,
  createTestClient,
  Ephemeral,
  FrugalConfigError,
  McpModule,
  McpService,
  Tool,
} from "frugal-mcp";
import { afterAll, describe, expect, it } from "vitest";

const ROWS = Array.from({ length: 1_000 }, (_, i) => ({
  id: i,
  title: `Issue number ${i} about a flaky timeout`,
  state: "open",
}));

@McpService()
class ExportService {
  @Tool()
  @Ephemeral({ when: "always" })
  byDefault() {
    return ROWS;
  }

  @Tool()
  @Ephemeral({ when: "always", preview: 400 })
  larger() {
    return ROWS;
  }

  @Tool()
  @Ephemeral({ when: "always", preview: false })
  none() {
    return ROWS;
  }
}
@McpModule({ services: [ExportService] })
class ExportModule {}

const counter = new BpeTokenCounter();
/** What the model reads of a spilled answer: its text and its link, as the budget counts them. */
async function tokensOf(result: CallToolResult): Promise<number> {
  let tokens = 0;
  for (const block of result.content) {
    const text = block.type === "text" ? block.text : JSON.stringify(block);
    tokens += (await counter.count(text, 100_000)).tokens;
  }
  return tokens;
}
const previewCount = (result: CallToolResult) => {
  const text = (result.content.find((b) => b.type === "text") as { text: string }).text;
  return Number(/Preview \(first (\d+)\)/.exec(text)?.[1] ?? 0);
};

describe("spill previews sized in tokens", () => {
  let client: Awaited<ReturnType<typeof createTestClient>>;
  afterAll(() => client?.close());

  it("holds the summary and its preview to 200 tokens by default, a number of tokens when given, none with false", async () => {
    client = await createTestClient(ExportModule);
    const byDefault = (await client.callTool({ name: "by_default", arguments: {} })) as CallToolResult;
    const larger = (await client.callTool({ name: "larger", arguments: {} })) as CallToolResult;
    const none = (await client.callTool({ name: "none", arguments: {} })) as CallToolResult;
    expect(await tokensOf(byDefault)).toBeLessThanOrEqual(200);
    expect(previewCount(byDefault)).toBeGreaterThan(0);
    expect(await tokensOf(larger)).toBeLessThanOrEqual(400);
    expect(previewCount(larger)).toBeGreaterThan(previewCount(byDefault));
    expect(previewCount(none)).toBe(0);
  });

  it.each([
    [0, "0"],
    [1.5, "1.5"],
    ["many", '"many"'],
  ])("refuses preview: %s at start-up", async (preview, shown) => {
    @McpService()
    class BadPreview {
      @Tool()
      @Ephemeral({ preview: preview as never })
      run() {
        return ROWS;
      }
    }
    @McpModule({ services: [BadPreview] })
    class BadModule {}
    const failure = createTestClient(BadModule);
    await expect(failure).rejects.toBeInstanceOf(FrugalConfigError);
    await expect(failure).rejects.toThrow(`BadPreview.run: @Ephemeral \`preview\``);
    await expect(failure).rejects.toThrow(shown);
  });
});
