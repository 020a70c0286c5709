/**
 * The contract's "Catalogue", written from its text alone and driven through the SDK client:
 * lean schemas, visibleTo, app.catalogue.enable/disable with list_changed, search_tools, and
 * tokensOf from frugal-mcp/testing.
 */

import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createTestClient, McpModule, McpService, Paginated, type TestClient, Tool } from "frugal-mcp";
import { tokensOf } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

@McpService()
class CatalogueService {
  @Tool({ description: "Lists invoices", input: { customer: z.string().optional() } })
  @Paginated("id", { limit: 20, maxLimit: 70 })
  listInvoices() {
    return [{ id: 1 }, { id: 2 }];
  }

  @Tool({
    description: "Refunds a payment",
    visibleTo: (caller: { owner?: unknown }) => caller.owner === "never",
  })
  refundPayment() {
    return "refunded";
  }

  @Tool({ description: "Weather forecast for a city", input: { city: z.string() } })
  forecast({ city }: { city: string }) {
    return `sunny in ${city}`;
  }

  @Tool({
    description: "Converts currencies",
    input: { amount: z.number(), from: z.string(), to: z.string() },
  })
  convertCurrency() {
    return 1;
  }
}

@McpModule({ services: [CatalogueService] })
class CatalogueModule {}

const names = async (client: { listTools(): Promise<{ tools: Array<{ name: string }> }> }) =>
  (await client.listTools()).tools.map((tool) => tool.name).sort();

describe("contract probes: catalogue", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(CatalogueModule, { name: "probe", version: "1.0.0" });
  });
  afterAll(() => client.close());

  it("keeps the real maximum of limit and never states no limit", async () => {
    const { tools } = await client.listTools();
    const list = tools.find((tool) => tool.name === "list_invoices");
    const limit = (list?.inputSchema.properties as Record<string, { maximum?: number }> | undefined)?.limit;
    expect(limit?.maximum).toBe(70);
    expect(JSON.stringify(tools)).not.toContain("9007199254740991");
  });

  it("hides a tool from callers it is not visible to, and refuses it as unknown", async () => {
    expect(await names(client)).not.toContain("refund_payment");
    const hidden = await client.callTool({ name: "refund_payment", arguments: {} }).then(
      (result) => JSON.stringify(result),
      (error: Error) => error.message,
    );
    const unknown = await client.callTool({ name: "no_such_tool", arguments: {} }).then(
      (result) => JSON.stringify(result),
      (error: Error) => error.message,
    );
    expect(hidden.replace("refund_payment", "X")).toBe(unknown.replace("no_such_tool", "X"));
  });

  it("disable and enable change the list and announce it", async () => {
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    const announced = () =>
      new Promise<void>((resolve) => {
        const before = changed;
        const poll = setInterval(() => {
          if (changed > before) {
            clearInterval(poll);
            resolve();
          }
        }, 5);
      });
    let wait = announced();
    await client.app.catalogue.disable("forecast");
    await wait;
    expect(await names(client)).not.toContain("forecast");
    const refused = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } }).then(
      (result) => Boolean(result.isError),
      () => true,
    );
    expect(refused).toBe(true);
    wait = announced();
    await client.app.catalogue.enable("forecast");
    await wait;
    expect(await names(client)).toContain("forecast");
  });

  it("tokensOf counts what the model reads of a result and of a tools/list answer", async () => {
    const result = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
    expect(tokensOf(result)).toBeGreaterThan(0);
    expect(tokensOf(result)).toBeLessThan(20);
    expect(tokensOf(await client.listTools())).toBeGreaterThan(50);
  });
});

describe("contract probes: search_tools", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(CatalogueModule, {
      name: "probe",
      version: "1.0.0",
      catalogue: { search: true, pinned: ["forecast"] },
    });
  });
  afterAll(() => client.close());

  it("lists the pinned tools and search_tools; a tool search returned joins the list; all stay callable", async () => {
    expect(await names(client)).toEqual(["forecast", "search_tools"]);
    const found = await client.callTool({
      name: "search_tools",
      arguments: { query: "currency conversion" },
    });
    expect(JSON.stringify(found)).toContain("convert_currency");
    expect(await names(client)).toContain("convert_currency");
    const invoices = await client.callTool({ name: "list_invoices", arguments: {} });
    expect(invoices.isError).toBeFalsy();
  });
});
