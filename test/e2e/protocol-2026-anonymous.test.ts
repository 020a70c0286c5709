// An anonymous 2026-07-28 caller has no session and no principal: what it stores is
// reachable by its unguessable URI from any later request, and listed to nobody ("Protocol
// versions" in DESIGN.md). Before, every request was its own owner, so a spilled result's
// link answered "not found" on the next request.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ephemeral, McpFactory, McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { McpApp2026 } from "../../src/app/app-2026.js";

@McpService()
class ReportsService {
  @Tool({ description: "A report, always stored", input: { topic: z.string() } })
  @Ephemeral({ when: "always", mimeType: "application/json" })
  report({ topic }: { topic: string }) {
    return Array.from({ length: 50 }, (_, i) => ({ topic, line: i }));
  }

  @Tool({ description: "Stores at a chosen URI", input: { uri: z.string() } })
  async storeAt({ uri }: { uri: string }, ctx: ToolContext) {
    if (!ctx.resources) throw new Error("no ctx.resources");
    const info = await ctx.resources.create({ secret: 42 }, { uri });
    return { uri: info.uri };
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

const pinned = { versionNegotiation: { mode: { pin: "2026-07-28" as const } } };
const linkOf = (result: unknown) =>
  ((result as { content: Array<{ type: string; uri?: string }> }).content.find(
    (c) => c.type === "resource_link",
  )?.uri ?? "") as string;

describe("anonymous 2026-07-28 callers (no session, no principal)", () => {
  let app: McpApp2026;
  let url: URL;
  beforeAll(async () => {
    app = (await McpFactory.create(ReportsModule, {
      name: "reports",
      version: "1.0.0",
      protocol: "2026-07-28",
      cursorSecret: "a long enough test secret for request state",
    })) as McpApp2026;
    url = new URL((await app.listen({ transport: "http", port: 0 })).url);
  });
  afterAll(() => app.close());

  async function pinnedClient() {
    const client = new Client({ name: "anonymous", version: "1.0.0" }, pinned);
    await client.connect(new StreamableHTTPClientTransport(url));
    expect(client.getProtocolEra()).toBe("modern");
    return client;
  }

  it("reads a stored result back by its link on a later request, from any anonymous client", async () => {
    const writer = await pinnedClient();
    const uri = linkOf(await writer.callTool({ name: "report", arguments: { topic: "sales" } }));
    expect(uri).toMatch(/^ephemeral:\/\/report\//);
    // The next request of the same client: before, "not found" (each request was its own owner).
    const again = await writer.readResource({ uri });
    expect(JSON.parse((again.contents[0] as { text: string }).text)).toHaveLength(50);
    // Another anonymous client holding the link reads it too: the unguessable URI is the key.
    const other = await pinnedClient();
    const read = await other.readResource({ uri });
    expect((read.contents[0] as { text: string }).text).toContain('"topic":"sales"');
    await Promise.all([writer.close(), other.close()]);
  });

  it("lists it to nobody: neither anonymous clients nor a 2025 session", async () => {
    const writer = await pinnedClient();
    const uri = linkOf(await writer.callTool({ name: "report", arguments: { topic: "unlisted" } }));
    expect((await writer.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
    const legacy = new ClientV1({ name: "v1", version: "1.0.0" });
    const transport = new HttpV1(url);
    await legacy.connect(transport);
    expect((await legacy.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
    await transport.terminateSession();
    await Promise.all([writer.close(), legacy.close()]);
  });

  it("refuses a chosen URI, which anyone could guess, and says what to do instead", async () => {
    const client = await pinnedClient();
    const result = (await client.callTool({
      name: "store_at",
      arguments: { uri: "notes://mine" },
    })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain("anonymous caller");
    expect(result.content[0].text).toContain("leave `uri` out");
    await client.close();
  });

  it("a 2025 session still owns what it stores: another session gets not found", async () => {
    const sessionOf = async () => {
      const client = new ClientV1({ name: "v1", version: "1.0.0" });
      const transport = new HttpV1(url);
      await client.connect(transport);
      return { client, transport };
    };
    const a = await sessionOf();
    const uri = linkOf(await a.client.callTool({ name: "report", arguments: { topic: "private" } }));
    expect((await a.client.listResources()).resources.map((r) => r.uri)).toContain(uri);
    const b = await sessionOf();
    await expect(b.client.readResource({ uri })).rejects.toThrow(/-32002|not found/i);
    for (const { client, transport } of [a, b]) {
      await transport.terminateSession();
      await client.close();
    }
  });
});
