import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpFactory } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpApp2026 } from "../../src/app/app-2026.js";
import type { ListenedUris } from "../../src/protocol/registrar-2026/listened-uris.js";
import { Era2026Module } from "../support/protocol-2026-services.js";

// `app.connectAnyEra(transport)` is what `listen({ transport: "stdio" })` runs (serveStdio over
// the process's stdio); an in-memory v2 transport stands in for the pipes.
describe('protocol: "2026-07-28": subscriptions/listen over a stdio-like connection', () => {
  let app: McpApp2026;
  beforeAll(async () => {
    app = (await McpFactory.create(Era2026Module, {
      name: "listen-stdio",
      version: "1.0.0",
      protocol: "2026-07-28",
    })) as McpApp2026;
  });
  afterAll(() => app.close());
  const listened = () => (app as unknown as { listened: ListenedUris }).listened;

  async function connect() {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new Client(
      { name: "listener", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(clientSide);
    return client;
  }

  it("delivers an invalidation to the listen stream that asked for the URI, then forgets it on close", async () => {
    const client = await connect();
    const updated = new Promise<string>((resolve) => {
      client.setNotificationHandler("notifications/resources/updated", async (notification) => {
        resolve(notification.params.uri);
      });
    });
    const subscription = await client.listen({ resourceSubscriptions: ["config://app"] });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual(["config://app"]);
    expect(listened().has("config://app")).toBe(true);
    expect(JSON.stringify((await client.readResource({ uri: "config://app" })).contents)).toContain("dark");
    await client.callTool({ name: "set_theme", arguments: { theme: "light" } });
    expect(await updated).toBe("config://app");
    await subscription.close();
    await expect.poll(() => listened().has("config://app")).toBe(false);
    await client.close();
  });

  it("forgets a connection's listened URIs when the connection ends", async () => {
    const client = await connect();
    await client.listen({ resourceSubscriptions: ["sites://alpha"] });
    expect(listened().has("sites://alpha")).toBe(true);
    await client.close();
    await expect.poll(() => listened().has("sites://alpha")).toBe(false);
  });
});
