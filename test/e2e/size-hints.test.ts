/** `_meta["anthropic/maxResultSizeChars"]`: hosts that cut long results are told a budgeted tool's largest answer. */
import { Budget, createTestClient, McpModule, McpService, Tool } from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";

const HINT = "anthropic/maxResultSizeChars";

@McpService()
class HintedService {
  @Tool()
  @Budget(2_000)
  small() {
    return "x";
  }

  @Tool()
  @Budget(100_000)
  huge() {
    return "x";
  }

  @Tool({ meta: { [HINT]: 1234 } })
  @Budget(2_000)
  ownHint() {
    return "x";
  }

  @Tool()
  free() {
    return "x";
  }

  @Tool({ visibility: ["app"] })
  @Budget(2_000)
  appOnly() {
    return "x";
  }
}
@McpModule({ services: [HintedService] })
class HintedModule {}

describe("size hints in tools/list", () => {
  const clients: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  async function hints(options: { budget?: number } = {}) {
    const client = await createTestClient(HintedModule, options);
    clients.push(client);
    const { tools } = await client.listTools();
    return Object.fromEntries(tools.map((tool) => [tool.name, tool._meta?.[HINT]]));
  }

  it("advertises 8 characters per budgeted token, at most 500,000, and none without a budget", async () => {
    expect(await hints()).toEqual({
      small: 16_000,
      huge: 500_000,
      own_hint: 1234, // the tool's own meta wins
      free: undefined,
      app_only: undefined, // an app-only tool is not budgeted: the model never reads it
    });
  });

  it("advertises the app's budget on every model-visible tool", async () => {
    const byName = await hints({ budget: 500 });
    expect(byName.free).toBe(4_000);
    expect(byName.small).toBe(16_000);
  });
});
