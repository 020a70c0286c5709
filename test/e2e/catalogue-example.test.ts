/** examples/catalogue: search over a support desk, admin tools per principal, and a run-time switch. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type McpApp, McpFactory } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticate, CATALOGUE_OPTIONS, SupportDeskModule } from "../../examples/catalogue/app.module.js";
import { listChanged, streamsOpen, toolNames } from "../support/catalogue-services.js";

describe("examples/catalogue", () => {
  let app: McpApp;
  let url: URL;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await McpFactory.create(SupportDeskModule, {
      name: "desk",
      version: "1",
      catalogue: CATALOGUE_OPTIONS,
    });
    url = new URL((await app.listen({ transport: "http", port: 0, authenticate })).url);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  async function connectAs(token: string) {
    const client = new Client({ name: token, version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }
  const found = async (client: Client, query: string) => {
    const result = await client.callTool({ name: "search_tools", arguments: { query } });
    return (result.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
  };

  it("lists get_ticket and search_tools; search finds the rest, and what it found joins the list", async () => {
    const agent = await connectAs("agent-token");
    expect(await toolNames(agent)).toEqual(["get_ticket", "search_tools"]);
    await streamsOpen([agent], () => app.catalogue.enable("get_ticket"));
    const grown = listChanged(agent, "tools");
    expect((await found(agent, "refund an invoice"))[0]).toBe("issue_refund");
    await grown;
    expect(await toolNames(agent)).toContain("issue_refund");
    expect((await found(agent, "password"))[0]).toBe("reset_password");
    expect((await found(agent, "on-call engineer"))[0]).toBe("escalate_ticket");
  });

  it("hides the admin tools from an agent, in search and on call", async () => {
    const agent = await connectAs("agent-token");
    const admin = await connectAs("admin-token");
    expect(await found(agent, "delete customer account")).not.toContain("delete_customer");
    expect((await found(admin, "delete customer account"))[0]).toBe("delete_customer");
    await expect(agent.callTool({ name: "delete_customer", arguments: { email: "a@b.c" } })).rejects.toThrow(
      'Unknown tool "delete_customer"',
    );
  });

  it("pause_refunds switches issue_refund off for everyone, telling every client", async () => {
    const agent = await connectAs("agent-token");
    const admin = await connectAs("admin-token");
    await streamsOpen([agent], () => app.catalogue.enable("get_ticket"));
    const told = listChanged(agent, "tools");
    await admin.callTool({ name: "pause_refunds", arguments: { paused: true } });
    await told;
    await expect(
      agent.callTool({ name: "issue_refund", arguments: { email: "a@b.c", amount: 5 } }),
    ).rejects.toThrow('Unknown tool "issue_refund"');
    expect(await found(agent, "refund")).not.toContain("issue_refund");
    await admin.callTool({ name: "pause_refunds", arguments: { paused: false } });
    const refund = await agent.callTool({ name: "issue_refund", arguments: { email: "a@b.c", amount: 5 } });
    expect(refund.structuredContent).toEqual({ email: "a@b.c", refunded: 5 });
  });
});
