import { McpModule, McpService, RedisStorage, Resource, STORAGE, Tool } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterEach, describe, expect, it } from "vitest";

@McpService()
class CatalogService {
  @Resource("config://app", { mimeType: "application/json" })
  config() {
    return { theme: "dark" };
  }

  @Resource("sites://{site}", { list: () => [{ uri: "sites://alpha", name: "Alpha" }] })
  site({ site }: { site: string }) {
    return site;
  }

  @Resource("broken://{id}", {
    list: () => {
      throw new Error("the catalogue database is down");
    },
  })
  broken({ id }: { id: string }) {
    return id;
  }

  @Tool({ description: "Stores a note", input: {} })
  async note(_input: unknown, ctx: import("frugal-mcp").ToolContext) {
    const info = await ctx.resources.create("hello", { name: "note" });
    return info.uri;
  }
}

@McpModule({ services: [CatalogService] })
class CatalogModule {}

describe("resources/list degrades per source", () => {
  let t: TestClient | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("lists static resources and the other sources when one template's list throws", async () => {
    t = await createTestClient(CatalogModule, { ephemeral: { tools: true } });
    const { resources } = await t.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["config://app", "sites://alpha"]);
    expect(t.app.stats().resources.listErrors).toBe(1);
  });

  it("lists static resources when the ephemeral storage (Redis at a dead port) fails", async () => {
    const storage = new RedisStorage({ url: "redis://127.0.0.1:1" });
    t = await createTestClient(CatalogModule, {
      providers: [{ provide: STORAGE, useValue: storage }],
      readyTimeoutMs: 50,
    });
    const { resources } = await t.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["config://app", "sites://alpha"]);
    // The broken template's list and the storage: two sources failed, neither failed the call.
    expect(t.app.stats().resources.listErrors).toBe(2);
  });
});
