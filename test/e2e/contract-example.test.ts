// The contract's "What a user writes" example, as written there (in-memory repositories
// stand in for the database), driven end to end through the SDK client.
import {
  Budget,
  Cached,
  createTestClient,
  Ephemeral,
  Injectable,
  Invalidates,
  McpModule,
  McpService,
  Paginated,
  Resource,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

interface Article {
  site: string;
  updatedAt: Date;
  slug: string;
  title: string;
}

@Injectable()
class ArticlesRepo {
  readonly rows: Article[] = Array.from({ length: 45 }, (_, i) => ({
    site: "a",
    updatedAt: new Date(Date.UTC(2026, 0, 1 + Math.floor(i / 3))),
    slug: `post-${String(i).padStart(2, "0")}`,
    title: `Post ${i}`,
  }));
  reads = 0;

  after(site: string, after: Record<string, unknown> | null, limit: number): Article[] {
    this.reads++;
    const key = (a: Article) => `${a.updatedAt.toISOString()}|${a.slug}`;
    const from = after ? `${(after.updatedAt as Date).toISOString()}|${after.slug as string}` : "";
    return this.rows
      .filter((a) => a.site === site && key(a) > from)
      .sort((x, y) => (key(x) < key(y) ? -1 : 1))
      .slice(0, limit);
  }
}

@Injectable()
class LogIndex {
  search(query: string): string[] {
    return Array.from({ length: 5000 }, (_, i) => `line ${i} ${query}`);
  }
}

@Injectable()
class Settings {
  version = 1;
  current() {
    return { theme: "dark", version: this.version };
  }
}

@McpService()
class ArticlesService {
  constructor(
    private readonly repo: ArticlesRepo,
    private readonly logs: LogIndex,
    private readonly settings: Settings,
  ) {}

  @Tool({ description: "List articles of a site", input: { site: z.string() } })
  @Paginated(["updatedAt", "slug"], { limit: 20, maxLimit: 50 })
  @Cached({ ttl: 60_000, invalidateOn: ["articles.changed"] })
  @Budget(2000)
  async listArticles({ site }: { site: string }, ctx: ToolContext) {
    // biome-ignore lint/style/noNonNullAssertion: written exactly as in the contract
    return this.repo.after(site, ctx.page!.after, ctx.page!.limit + 1);
  }

  @Tool({ description: "Publish an article", input: { site: z.string(), slug: z.string() } })
  @Invalidates("articles.changed")
  async publish(input: { site: string; slug: string }) {
    this.repo.rows.push({
      site: input.site,
      slug: input.slug,
      title: input.slug,
      updatedAt: new Date(Date.UTC(2027, 0, 1)),
    });
    return { published: input.slug };
  }

  @Tool({ description: "Search all logs", input: { query: z.string() } })
  @Ephemeral({ ttl: 3_600_000, mimeType: "application/json" })
  async searchLogs({ query }: { query: string }) {
    return this.logs.search(query);
  }

  @Resource("config://app", { mimeType: "application/json" })
  @Cached({ ttl: 3_600_000, invalidateOn: ["config.changed"] })
  async config() {
    return this.settings.current();
  }
}

@McpModule({ services: [ArticlesService], providers: [ArticlesRepo, LogIndex, Settings] })
class AppModule {}

type Page = {
  items: Array<Article & { updatedAt: string }>;
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
};

describe("the contract's example", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(AppModule, { cursorSecret: "contract-example-secret" });
  });
  afterAll(() => t.close());

  it("pages by (updatedAt, slug), caches each page, and drops the cache on publish", async () => {
    const repo = t.app.get(ArticlesRepo);
    const walk = async () => {
      const slugs: string[] = [];
      let cursor: string | null = null;
      do {
        const result = await t.callTool({
          name: "list_articles",
          arguments: cursor ? { site: "a", cursor } : { site: "a" },
        });
        const page = result.structuredContent as Page;
        slugs.push(...page.items.map((a) => a.slug));
        cursor = page.nextCursor;
      } while (cursor);
      return slugs;
    };
    const first = await walk();
    expect(first).toHaveLength(45);
    expect(new Set(first).size).toBe(45);
    const reads = repo.reads;
    expect(await walk()).toEqual(first);
    expect(repo.reads).toBe(reads);
    await t.callTool({ name: "publish", arguments: { site: "a", slug: "fresh" } });
    const after = await walk();
    expect(after).toHaveLength(46);
    expect(after.at(-1)).toBe("fresh");
  });

  it("spills a large log search into an ephemeral resource", async () => {
    const result = await t.callTool({ name: "search_logs", arguments: { query: "timeout" } });
    const link = (result.content as Array<{ type: string; uri: string; name: string }>)[0];
    expect(link?.type).toBe("resource_link");
    expect(link?.uri).toMatch(/^ephemeral:\/\/search_logs\//);
    expect(result.structuredContent).toMatchObject({ spilled: { uri: link?.uri } });
    const slice = (await t.callTool({ name: "read_resource", arguments: { uri: link?.uri, offset: 4998 } }))
      .structuredContent as { items: string[]; hasMore: boolean; total: number };
    expect(slice).toMatchObject({
      items: ["line 4998 timeout", "line 4999 timeout"],
      hasMore: false,
      total: 5000,
    });
  });

  it("caches the config resource until config.changed", async () => {
    const settings = t.app.get(Settings);
    const read = async () =>
      JSON.parse(((await t.readResource({ uri: "config://app" })).contents[0] as { text: string }).text);
    expect(await read()).toEqual({ theme: "dark", version: 1 });
    settings.version = 2;
    expect(await read()).toEqual({ theme: "dark", version: 1 });
    const { EVENT_BUS } = await import("frugal-mcp");
    await t.app.get(EVENT_BUS).emit("config.changed");
    expect(await read()).toEqual({ theme: "dark", version: 2 });
  });
});
