/**
 * `catalogue: { search: true, pinned }`: tools/list shows the pinned tools and search_tools;
 * search answers full definitions, best first, respecting visibleTo and disabled tools; what
 * it found joins the caller's list (announced with tools/list_changed); every tool stays
 * callable by name.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { FrugalConfigError, McpFactory } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listChanged, toolNames } from "../support/catalogue-services.js";
import { ManyToolsModule } from "../support/catalogue-tools.js";

const search = async (client: Client, args: Record<string, unknown>) => {
  const result = await client.callTool({ name: "search_tools", arguments: args });
  return result as {
    isError?: boolean;
    structuredContent?: { tools: Tool[] };
    content: Array<{ text: string }>;
  };
};
const namesFound = async (client: Client, query: string, limit?: number) =>
  ((await search(client, { query, ...(limit ? { limit } : {}) })).structuredContent?.tools ?? []).map(
    (t) => t.name,
  );

describe("catalogue: search", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(ManyToolsModule, { catalogue: { search: true, pinned: ["get_status"] } });
  });
  afterAll(() => client.close());

  it("lists the pinned tools and search_tools only, and still serves every tool by name", async () => {
    expect(await toolNames(client)).toEqual(["get_status", "search_tools"]);
    const weather = await client.callTool({ name: "weather_now", arguments: { city: "Lyon" } });
    expect(weather.structuredContent).toEqual({ city: "Lyon", celsius: 21 });
  });

  it("answers the matching tools' full definitions, best first", async () => {
    const { structuredContent } = await search(client, { query: "merge pull request" });
    const tools = structuredContent?.tools ?? [];
    expect(tools[0]).toMatchObject({
      name: "merge_pull_request",
      description: "Merge a pull request once its checks pass",
      inputSchema: {
        type: "object",
        properties: { repository: { type: "string" }, number: { type: "number" } },
      },
    });
    expect(tools.map((t) => t.name)).toContain("create_pull_request");
    expect((await namesFound(client, "remove a file"))[0]).toBe("delete_file");
    expect((await namesFound(client, "email"))[0]).toBe("send_email");
    // Parameter names count: "city" is a parameter of weather_now only.
    expect((await namesFound(client, "city"))[0]).toBe("weather_now");
    expect((await namesFound(client, "calendar meeting attendees"))[0]).toBe("schedule_meeting");
    expect(await namesFound(client, "pull", 1)).toHaveLength(1);
    expect(await namesFound(client, "xylophone")).toEqual([]);
  });

  it("adds what search found to the caller's list, with tools/list_changed, and not to another session's", async () => {
    const [searcher, other] = [await client.connect(), await client.connect()];
    const grown = listChanged(searcher, "tools");
    expect(await namesFound(searcher, "currency", 1)).toEqual(["convert_currency"]);
    await grown;
    expect(await toolNames(searcher)).toEqual(["convert_currency", "get_status", "search_tools"]);
    expect(await toolNames(other)).toEqual(["get_status", "search_tools"]);
  });

  it("never finds a tool hidden from the caller or disabled", async () => {
    expect(await namesFound(client, "drop cached pages")).not.toContain("purge_cache");
    await client.app.catalogue.disable("read_file");
    expect(await namesFound(client, "read file contents")).not.toContain("read_file");
    await client.app.catalogue.enable("read_file");
    expect((await namesFound(client, "read file contents"))[0]).toBe("read_file");
  });

  it("refuses an empty query and a limit of 0 with a message the model can act on", async () => {
    const empty = await search(client, { query: "  " });
    expect(empty.isError).toBe(true);
    expect(empty.content[0]?.text).toContain("query must name what the tool should do");
    const zero = await search(client, { query: "file", limit: 0 });
    expect(zero.isError).toBe(true);
    expect(zero.content[0]?.text).toMatch(/limit/);
    const tooMany = await search(client, { query: "file", limit: 21 });
    expect(tooMany.isError).toBe(true);
  });
});

describe("catalogue: start-up checks", () => {
  it("fails on an unknown pinned tool, naming the close ones", async () => {
    const created = McpFactory.create(ManyToolsModule, {
      name: "x",
      version: "1",
      catalogue: { search: true, pinned: ["get_stats"] },
    });
    await expect(created).rejects.toThrow(FrugalConfigError);
    await expect(created).rejects.toThrow(
      '`catalogue.pinned` names "get_stats", which is no tool of this app. Fix: did you mean "get_status"?',
    );
  });

  it("refuses a catalogue option of the wrong shape", async () => {
    const make = (catalogue: unknown) =>
      McpFactory.create(ManyToolsModule, { name: "x", version: "1", catalogue: catalogue as never });
    await expect(make({ search: "yes" })).rejects.toThrow("`catalogue.search` must be true or false");
    await expect(make({ search: true, pinned: "get_status" })).rejects.toThrow(
      "`catalogue.pinned` must be an array of tool names",
    );
    await expect(make({ pinned: ["get_status"] })).rejects.toThrow(
      "has no effect without `catalogue.search: true`",
    );
    await expect(make({ serch: true })).rejects.toThrow("unknown option `serch`");
  });
});
