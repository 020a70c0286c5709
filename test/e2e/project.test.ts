import {
  Cached,
  FrugalConfigError,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Project,
  Resource,
  readTable,
  Tool,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const ARTICLE = { id: "a1", title: "Intro", body: "A long body ".repeat(50), author: "ana", tags: ["x"] };
let calls = 0;

@McpService()
class ArticlesService {
  @Tool({ description: "One article", input: { id: z.string() } })
  @Project(["id", "title", "body", "author"], { defaultFields: ["id", "title"] })
  article({ id }: { id: string; fields?: string[] }) {
    calls++;
    return { ...ARTICLE, id };
  }

  @Tool({ description: "A card", input: {}, output: { id: z.string(), title: z.string(), body: z.string() } })
  @Project(["id", "title", "body"])
  card() {
    return { id: ARTICLE.id, title: ARTICLE.title, body: ARTICLE.body };
  }

  @Tool({ description: "Several", input: {} })
  @Project(["id", "title", "body"])
  many() {
    return { items: [ARTICLE, { ...ARTICLE, id: "a2" }], total: 2 };
  }

  @Tool({ description: "An array" })
  @Project(["id"])
  @Cached({ ttl: 60_000 })
  ids() {
    calls++;
    return [ARTICLE, { ...ARTICLE, id: "a2" }];
  }
}

@McpModule({ services: [ArticlesService] })
class ArticlesModule {}

describe("@Project", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(ArticlesModule);
  });
  afterAll(() => t.close());

  it("advertises an optional `fields` input listing the selectable fields", async () => {
    const { tools } = await t.listTools();
    const article = tools.find((tool) => tool.name === "article");
    expect(article?.inputSchema.properties?.fields).toMatchObject({
      type: "array",
      items: { enum: ["id", "title", "body", "author"] },
    });
    expect(article?.inputSchema.required).toEqual(["id"]);
  });

  it("returns the default fields when none are asked, and exactly the asked ones otherwise", async () => {
    const plain = await t.callTool({ name: "article", arguments: { id: "a1" } });
    expect(plain.structuredContent).toEqual({ id: "a1", title: "Intro" });
    const chosen = await t.callTool({
      name: "article",
      arguments: { id: "a1", fields: ["author", "title"] },
    });
    expect(chosen.structuredContent).toEqual({ title: "Intro", author: "ana" });
    expect(JSON.parse((chosen.content as Array<{ text: string }>)[0]?.text ?? "")).toEqual({
      title: "Intro",
      author: "ana",
    });
  });

  it("refuses an unknown field name as an invalid argument, naming it", async () => {
    const bad = await t.callTool({ name: "article", arguments: { id: "a1", fields: ["password"] } });
    expect(bad.isError).toBe(true);
    expect((bad.content as Array<{ text: string }>)[0]?.text).toMatch(/fields/);
  });

  it("projects an object's items (keeping its other keys) and satisfies a declared output schema", async () => {
    const result = await t.callTool({ name: "many", arguments: { fields: ["id"] } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ items: [{ id: "a1" }, { id: "a2" }], total: 2 });
    // A declared output schema allows the fields a selection leaves out.
    const card = await t.callTool({ name: "card", arguments: { fields: ["title"] } });
    expect(card.isError).toBeFalsy();
    expect(card.structuredContent).toEqual({ title: "Intro" });
  });

  it("projects an array, and caches per selection", async () => {
    calls = 0;
    const first = await t.callTool({ name: "ids", arguments: {} });
    await t.callTool({ name: "ids", arguments: {} });
    expect((first.content as Array<{ text: string }>)[0]?.text).toBe("id\na1\na2");
    expect(readTable((first.content as Array<{ text: string }>)[0]?.text ?? "").items).toEqual([
      { id: "a1" },
      { id: "a2" },
    ]);
    expect(calls).toBe(1);
  });

  it("fails at start-up on bad declarations", async () => {
    const startup = async (service: new () => unknown) => {
      @McpModule({ services: [service] })
      class M {}
      return McpFactory.create(M, { name: "t", version: "1" }).catch((e: unknown) => e as FrugalConfigError);
    };
    @McpService()
    class WithPaginated {
      @Tool()
      @Paginated("id", { fields: ["id"] })
      @Project(["id"])
      list() {
        return [];
      }
    }
    expect(((await startup(WithPaginated)) as Error).message).toBe(
      "WithPaginated.list: @Project cannot be combined with @Paginated. Fix: use @Paginated's own `fields` and `defaultFields` options, and remove @Project.",
    );
    @McpService()
    class BadDefault {
      @Tool()
      @Project(["id"], { defaultFields: ["title"] })
      one() {
        return {};
      }
    }
    expect(((await startup(BadDefault)) as Error).message).toBe(
      'BadDefault.one: @Project `defaultFields` names "title", which is not one of its fields. Fix: add "title" to the fields, or remove it from `defaultFields`.',
    );
    @McpService()
    class OnResource {
      @Resource("x://y")
      @Project(["id"])
      one() {
        return {};
      }
    }
    expect(((await startup(OnResource)) as Error).message).toBe(
      "OnResource.one: @Project applies to tools only. Fix: remove @Project, or make this method a @Tool.",
    );
    @McpService()
    class Clash {
      @Tool({ input: { fields: z.string() } })
      @Project(["id"])
      one() {
        return {};
      }
    }
    expect(((await startup(Clash)) as Error).message).toBe(
      "Clash.one: @Project adds a `fields` input, but the tool's `input` already has one. Fix: rename the tool's own `fields` input.",
    );
  });
});
