import { createTestClient, McpModule, McpService, Prompt, Resource, type TestClient } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const SITES = ["alpha", "beta", "bravo"];

@McpService()
class CatalogService {
  @Resource("config://app", { mimeType: "application/json", description: "App settings" })
  config() {
    return { theme: "dark" };
  }

  @Resource("files://logo", { mimeType: "image/png" })
  logo() {
    return new Uint8Array([137, 80, 78, 71]);
  }

  @Resource("sites://{site}/articles/{slug}", {
    list: () => [{ uri: "sites://alpha/articles/intro", name: "Intro" }],
    complete: { site: (prefix) => SITES.filter((s) => s.startsWith(prefix)) },
  })
  article({ site, slug }: { site: string; slug: string }) {
    return `${site}/${slug}`;
  }

  @Resource("logs://{app}{?since,limit}", {
    input: {
      app: z.string(),
      since: z.string().optional(),
      limit: z.coerce.number().int().max(100).default(10),
    },
  })
  logs(input: { app: string; since?: string; limit: number }) {
    return input;
  }

  @Prompt({
    description: "Greets someone",
    input: { name: z.string().describe("who"), tone: z.string().optional() },
  })
  greet({ name, tone }: { name: string; tone?: string }) {
    return `Say hello to ${name}${tone ? ` in a ${tone} tone` : ""}.`;
  }

  @Prompt({
    input: { site: z.string() },
    complete: { site: (prefix) => SITES.filter((s) => s.startsWith(prefix)) },
  })
  conversation({ site }: { site: string }) {
    return [
      { role: "user" as const, content: { type: "text" as const, text: `Tell me about ${site}` } },
      { role: "assistant" as const, content: { type: "text" as const, text: "Sure." } },
    ];
  }
}

@McpModule({ services: [CatalogService] })
class CatalogModule {}

const textOf = (result: { contents: unknown[] }) => String((result.contents[0] as { text?: string }).text);

describe("resources", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(CatalogModule);
  });
  afterAll(() => t.close());

  it("lists static resources and the instances a template lists", async () => {
    const { resources } = await t.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual([
      "config://app",
      "files://logo",
      "sites://alpha/articles/intro",
    ]);
    const { resourceTemplates } = await t.client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      "sites://{site}/articles/{slug}",
      "logs://{app}{?since,limit}",
    ]);
  });

  it("reads JSON, binary and text resources", async () => {
    const config = await t.client.readResource({ uri: "config://app" });
    expect(config.contents).toEqual([
      { uri: "config://app", mimeType: "application/json", text: '{"theme":"dark"}' },
    ]);
    const logo = await t.client.readResource({ uri: "files://logo" });
    expect(logo.contents[0]).toMatchObject({ mimeType: "image/png", blob: "iVBORw==" });
    const article = await t.client.readResource({ uri: "sites://beta/articles/hello%20world" });
    expect(article.contents[0]).toMatchObject({
      uri: "sites://beta/articles/hello%20world",
      text: "beta/hello world",
    });
  });

  it("matches query variables that are missing, partial or in any order", async () => {
    const none = JSON.parse(textOf(await t.client.readResource({ uri: "logs://api" })));
    expect(none).toEqual({ app: "api", limit: 10 });
    const reordered = JSON.parse(
      textOf(await t.client.readResource({ uri: "logs://api?limit=5&since=2026-01-01" })),
    );
    expect(reordered).toEqual({ app: "api", since: "2026-01-01", limit: 5 });
    const partial = JSON.parse(textOf(await t.client.readResource({ uri: "logs://api?since=yesterday" })));
    expect(partial).toEqual({ app: "api", since: "yesterday", limit: 10 });
  });

  it("answers bad template variables with -32602 and unknown URIs with -32002", async () => {
    await expect(t.client.readResource({ uri: "logs://api?limit=5000" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("limit"),
    });
    await expect(t.client.readResource({ uri: "logs://api?bogus=1" })).rejects.toMatchObject({
      code: -32002,
      data: { uri: "logs://api?bogus=1" },
    });
    await expect(t.client.readResource({ uri: "nothing://here" })).rejects.toMatchObject({ code: -32002 });
  });

  it("completes template variables", async () => {
    const result = await t.client.complete({
      ref: { type: "ref/resource", uri: "sites://{site}/articles/{slug}" },
      argument: { name: "site", value: "b" },
    });
    expect(result.completion).toEqual({ values: ["beta", "bravo"], total: 2, hasMore: false });
    const none = await t.client.complete({
      ref: { type: "ref/resource", uri: "sites://{site}/articles/{slug}" },
      argument: { name: "slug", value: "x" },
    });
    expect(none.completion.values).toEqual([]);
  });

  it("accepts subscriptions and notifies subscribers only", async () => {
    const { ResourceUpdatedNotificationSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const other = await t.connect();
    const mine: string[] = [];
    const theirs: string[] = [];
    t.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void mine.push(n.params.uri));
    other.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void theirs.push(n.params.uri));
    await t.client.subscribeResource({ uri: "config://app" });
    await t.app.notifyResourceUpdated("config://app");
    await t.app.notifyResourceUpdated("files://logo");
    await expect.poll(() => mine).toEqual(["config://app"]);
    await t.client.unsubscribeResource({ uri: "config://app" });
    await t.app.notifyResourceUpdated("config://app");
    // notifyResourceUpdated resolves once sent, and a session's messages arrive in order:
    // after a ping round trip on each client, a wrongly sent notification would be in.
    await Promise.all([t.client.ping(), other.ping()]);
    expect(mine).toEqual(["config://app"]);
    expect(theirs).toEqual([]);
  });
});

describe("prompts", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(CatalogModule);
  });
  afterAll(() => t.close());

  it("lists prompts with their arguments", async () => {
    const { prompts } = await t.client.listPrompts();
    expect(prompts.find((p) => p.name === "greet")).toEqual({
      name: "greet",
      description: "Greets someone",
      arguments: [
        { name: "name", description: "who", required: true },
        { name: "tone", required: false },
      ],
    });
  });

  it("renders a string and a list of messages", async () => {
    const greet = await t.client.getPrompt({ name: "greet", arguments: { name: "Ada", tone: "warm" } });
    expect(greet.messages).toEqual([
      { role: "user", content: { type: "text", text: "Say hello to Ada in a warm tone." } },
    ]);
    const conversation = await t.client.getPrompt({ name: "conversation", arguments: { site: "alpha" } });
    expect(conversation.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("refuses missing arguments and unknown prompts with -32602", async () => {
    await expect(t.client.getPrompt({ name: "greet", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("name"),
    });
    await expect(t.client.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: -32602 });
  });

  it("completes prompt arguments", async () => {
    const result = await t.client.complete({
      ref: { type: "ref/prompt", name: "conversation" },
      argument: { name: "site", value: "al" },
    });
    expect(result.completion.values).toEqual(["alpha"]);
  });
});
