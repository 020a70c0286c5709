/**
 * The catalogue on the 2026-07-28 registrar: visibleTo per principal on sessionless requests,
 * and enable/disable reaching `subscriptions/listen` streams as list-changed notifications.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type McpApp, McpFactory } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateBearer, CatalogueModule } from "../support/catalogue-services.js";
import { ManyToolsModule } from "../support/catalogue-tools.js";

describe('catalogue on protocol "2026-07-28"', () => {
  let app: McpApp;
  let url: URL;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await McpFactory.create(CatalogueModule, {
      name: "catalogue",
      version: "1.0.0",
      protocol: "2026-07-28",
    });
    url = new URL((await app.listen({ transport: "http", port: 0, authenticate: authenticateBearer })).url);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  async function connectAs(token: string): Promise<Client> {
    const client = new Client({ name: token, version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect(client.getProtocolEra()).toBe("modern");
    clients.push(client);
    return client;
  }
  const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

  it("shows each principal its own lists and refuses the other's hidden tool as unknown", async () => {
    const alice = await connectAs("alice-token");
    const bob = await connectAs("bob-token");
    expect(await toolNames(alice)).toEqual(["echo", "purge_cache", "read_diary"]);
    expect(await toolNames(bob)).toEqual(["echo"]);
    expect((await bob.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
    expect((await alice.callTool({ name: "read_diary", arguments: {} })).structuredContent).toEqual({
      entries: 3,
    });
    const unknown = await bob.callTool({ name: "no_such_tool", arguments: {} }).catch((e: Error) => e);
    const hidden = await bob.callTool({ name: "read_diary", arguments: {} }).catch((e: Error) => e);
    expect(hidden).toBeInstanceOf(Error);
    expect((hidden as Error).message).toBe((unknown as Error).message.replace("no_such_tool", "read_diary"));
  });

  it("sends tools and prompts list changes to the listen streams that asked for them", async () => {
    const alice = await connectAs("alice-token");
    const toolsChanged = new Promise<void>((resolve) =>
      alice.setNotificationHandler("notifications/tools/list_changed", async () => resolve()),
    );
    const promptsChanged = new Promise<void>((resolve) =>
      alice.setNotificationHandler("notifications/prompts/list_changed", async () => resolve()),
    );
    const subscription = await alice.listen({ toolsListChanged: true, promptsListChanged: true });
    await app.catalogue.disable("echo");
    await toolsChanged;
    expect(await toolNames(alice)).toEqual(["purge_cache", "read_diary"]);
    await app.catalogue.disable("greet");
    await promptsChanged;
    expect((await alice.listPrompts()).prompts.map((p) => p.name)).toEqual(["admin_brief"]);
    await app.catalogue.enable("echo");
    await app.catalogue.enable("greet");
    expect(await toolNames(alice)).toContain("echo");
    await subscription.close();
  });
});

describe('catalogue search on protocol "2026-07-28"', () => {
  let app: McpApp;
  let url: URL;
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await McpFactory.create(ManyToolsModule, {
      name: "many",
      version: "1.0.0",
      protocol: "2026-07-28",
      catalogue: { search: true, pinned: ["get_status"] },
    });
    url = new URL((await app.listen({ transport: "http", port: 0, authenticate: authenticateBearer })).url);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await app.close();
  });

  async function connectAs(token: string): Promise<Client> {
    const client = new Client({ name: token, version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }
  const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();

  it("adds what a principal found to its list, told on its listen stream, and to no one else's", async () => {
    const alice = await connectAs("alice-token");
    const bob = await connectAs("bob-token");
    const grown = new Promise<void>((resolve) =>
      alice.setNotificationHandler("notifications/tools/list_changed", async () => resolve()),
    );
    const subscription = await alice.listen({ toolsListChanged: true });
    const found = await alice.callTool({
      name: "search_tools",
      arguments: { query: "send an email", limit: 1 },
    });
    expect((found.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual([
      "send_email",
    ]);
    await grown;
    expect(await toolNames(alice)).toEqual(["get_status", "search_tools", "send_email"]);
    expect(await toolNames(bob)).toEqual(["get_status", "search_tools"]);
    // Alice is an admin: search finds purge_cache for her, never for Bob.
    const forBob = await bob.callTool({ name: "search_tools", arguments: { query: "drop cached pages" } });
    expect(JSON.stringify(forBob.structuredContent)).not.toContain("purge_cache");
    const forAlice = await alice.callTool({
      name: "search_tools",
      arguments: { query: "drop cached pages" },
    });
    expect(JSON.stringify(forAlice.structuredContent)).toContain("purge_cache");
    await subscription.close();
  });
});
