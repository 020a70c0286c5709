import {
  CLOCK,
  createTestClient,
  ManualClock,
  McpModule,
  McpService,
  Paginated,
  Resource,
  type TestClient,
  Tool,
  type ToolContext,
  toolError,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { expectPageText } from "../support/lean-text.js";

interface Article {
  site: string;
  updatedAt: Date;
  slug: string;
  title: string;
  premium: boolean;
}

const ARTICLES: Article[] = Array.from({ length: 25 }, (_, i) => ({
  site: i % 2 === 0 ? "a" : "b",
  updatedAt: new Date(Date.UTC(2026, 0, 1 + (i % 5))),
  slug: `post-${String(i).padStart(2, "0")}`,
  title: `Post ${i}`,
  premium: i % 3 === 0,
}));

const iteratorStats = { read: 0, closed: false };
const seenAfter: unknown[] = [];

@McpService()
class ArticlesService {
  @Tool({ input: { site: z.string() } })
  @Paginated(["updatedAt", "slug"], { limit: 4, maxLimit: 6 })
  listArticles({ site }: { site: string }) {
    if (site === "nowhere") return toolError("unknown site");
    // Returned shuffled on purpose: the framework orders an array it was not told about.
    return ARTICLES.filter((a) => a.site === site).reverse();
  }

  @Tool({ input: { site: z.string() } })
  @Paginated(["updatedAt", "slug"], { limit: 3 })
  pushedDown({ site }: { site: string }, ctx: ToolContext) {
    const page = ctx.page;
    if (!page) throw new Error("no page");
    seenAfter.push(page.after);
    const sorted = ARTICLES.filter((a) => a.site === site).sort(
      (x, y) =>
        x.updatedAt.getTime() - y.updatedAt.getTime() || (x.slug < y.slug ? -1 : x.slug > y.slug ? 1 : 0),
    );
    const after = page.after as { updatedAt: Date; slug: string } | null;
    const rest = after
      ? sorted.filter(
          (a) =>
            a.updatedAt.getTime() > after.updatedAt.getTime() ||
            (a.updatedAt.getTime() === after.updatedAt.getTime() && a.slug > after.slug),
        )
      : sorted;
    return rest.slice(0, page.limit + 1);
  }

  @Tool()
  @Paginated("seq", { limit: 10, order: "desc" })
  async *feed() {
    iteratorStats.read = 0;
    iteratorStats.closed = false;
    try {
      for (let seq = 1_000_000; seq > 0; seq--) {
        iteratorStats.read++;
        yield { seq: BigInt(seq) * 10n, note: `event ${seq}` };
      }
    } finally {
      iteratorStats.closed = true;
    }
  }

  @Tool({ input: { site: z.string() } })
  @Paginated("slug", { fields: ["slug", "title", "premium", "updatedAt"], defaultFields: ["slug", "title"] })
  projected({ site }: { site: string }) {
    return ARTICLES.filter((a) => a.site === site);
  }

  @Tool()
  @Paginated("slug")
  missingKey() {
    return [{ slug: "a" }, { title: "no slug" }];
  }

  @Tool()
  @Paginated("slug")
  duplicateKeys() {
    return [{ slug: "a" }, { slug: "a" }];
  }

  @Resource("articles://{site}", { mimeType: "application/json" })
  @Paginated("slug", { limit: 5 })
  articlesResource({ site }: { site: string }) {
    return ARTICLES.filter((a) => a.site === site);
  }
}

@McpModule({ services: [ArticlesService] })
class ArticlesModule {}

type Envelope<T = Record<string, unknown>> = {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
};

const clock = new ManualClock(Date.UTC(2026, 5, 1));

describe("@Paginated", () => {
  let t: TestClient;
  const call = async (name: string, args: Record<string, unknown>) =>
    t.client.callTool({ name, arguments: args });
  const page = async <T = Record<string, unknown>>(name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    // The text the model reads carries the same items and envelope fields, read back.
    return expectPageText<Envelope<T>>(result);
  };
  const walk = async (name: string, args: Record<string, unknown>) => {
    const items: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const envelope: Envelope = await page(name, cursor ? { ...args, cursor } : args);
      expect(envelope.count).toBe(envelope.items.length);
      expect(envelope.hasMore).toBe(envelope.nextCursor !== null);
      items.push(...envelope.items);
      cursor = envelope.nextCursor;
      pages++;
    } while (cursor);
    return { items, pages };
  };

  beforeAll(async () => {
    t = await createTestClient(ArticlesModule, {
      cursorSecret: "a-test-secret-of-enough-length",
      providers: [{ provide: CLOCK, useValue: clock }],
    });
  });
  afterAll(() => t.close());

  it("advertises cursor and limit inputs", async () => {
    const { tools } = await t.client.listTools();
    const schema = tools.find((tool) => tool.name === "list_articles")?.inputSchema;
    expect(schema?.properties).toMatchObject({
      site: { type: "string" },
      cursor: { type: "string" },
      limit: { type: "integer" },
    });
    expect(schema?.required).toEqual(["site"]);
  });

  it("orders an untrusted array by the key and walks it without repeats or gaps", async () => {
    const { items, pages } = await walk("list_articles", { site: "a" });
    const expected = ARTICLES.filter((a) => a.site === "a")
      .sort((x, y) => x.updatedAt.getTime() - y.updatedAt.getTime() || (x.slug < y.slug ? -1 : 1))
      .map((a) => a.slug);
    expect(items.map((i) => i.slug)).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 4));
  });

  it("clamps limit to maxLimit and refuses a bad limit", async () => {
    expect((await page("list_articles", { site: "a", limit: 1000 })).count).toBe(6);
    expect((await page("list_articles", { site: "a", limit: 2 })).count).toBe(2);
    const bad = await call("list_articles", { site: "a", limit: 1.5 });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("limit");
  });

  it("trusts the rows of a handler that reads ctx.page, with typed after values", async () => {
    seenAfter.length = 0;
    const { items } = await walk("pushed_down", { site: "b" });
    expect(items.map((i) => i.slug)).toEqual(
      ARTICLES.filter((a) => a.site === "b")
        .sort((x, y) => x.updatedAt.getTime() - y.updatedAt.getTime() || (x.slug < y.slug ? -1 : 1))
        .map((a) => a.slug),
    );
    expect(seenAfter[0]).toBeNull();
    const second = seenAfter[1] as { updatedAt: unknown; slug: unknown };
    expect(second.updatedAt).toBeInstanceOf(Date);
    expect(typeof second.slug).toBe("string");
  });

  it("reads at most limit + 1 items of an async iterable, then closes it; bigints round-trip", async () => {
    const first = await page<{ seq: string }>("feed", {});
    expect(iteratorStats).toEqual({ read: 11, closed: true });
    expect(first.items.map((i) => i.seq)).toEqual(
      Array.from({ length: 10 }, (_, i) => String((1_000_000 - i) * 10)),
    );
    const second = await page<{ seq: string }>("feed", { cursor: first.nextCursor });
    expect(second.items[0]?.seq).toBe(String(999_990 * 10));
  });

  it("projects the selected fields, with defaults, while the key still drives the cursor", async () => {
    const defaults = await page("projected", { site: "a", limit: 2 });
    expect(Object.keys(defaults.items[0] ?? {})).toEqual(["slug", "title"]);
    const chosen = await page("projected", {
      site: "a",
      limit: 2,
      fields: ["premium"],
      cursor: defaults.nextCursor,
    });
    expect(chosen.items).toEqual([{ premium: false }, { premium: true }]); // post-04, post-06
    const bad = await call("projected", { site: "a", fields: ["secret"] });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("fields");
  });

  it("reports items missing a key field and duplicate keys", async () => {
    const missing = await call("missing_key", {});
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain('item 1 has no \\"slug\\"');
    const duplicate = await call("duplicate_keys", {});
    expect(JSON.stringify(duplicate.content)).toContain("unique key");
  });

  it("passes an isError result from the handler through", async () => {
    expect(await call("list_articles", { site: "nowhere" })).toEqual({
      content: [{ type: "text", text: "unknown site" }],
      isError: true,
    });
  });

  it("refuses cursors from other arguments, another tool, expired or oversized ones", async () => {
    const { nextCursor } = await page("list_articles", { site: "a" });
    const refused = async (name: string, args: Record<string, unknown>, reason: string) => {
      const result = await call(name, args);
      expect(result.isError).toBe(true);
      const message = (result.content as Array<{ text: string }>)[0]?.text ?? "";
      expect(message).toContain(reason);
      expect(message).toContain("without `cursor`");
    };
    await refused("list_articles", { site: "b", cursor: nextCursor }, "another tool, other arguments");
    await refused("pushed_down", { site: "a", cursor: nextCursor }, "another tool, other arguments");
    await refused("list_articles", { site: "a", cursor: "x".repeat(10_000) }, "longer than");
    await refused("list_articles", { site: "a", cursor: "not a cursor!" }, "not a cursor");
    // A limit change keeps the cursor valid: it is not part of the binding.
    expect((await page("list_articles", { site: "a", cursor: nextCursor, limit: 2 })).count).toBe(2);
    clock.advance(24 * 60 * 60 * 1000 + 1);
    await refused("list_articles", { site: "a", cursor: nextCursor }, "expired");
  });

  it("refuses every single-character change of a cursor", async () => {
    const { nextCursor } = await page("list_articles", { site: "a" });
    const cursor = nextCursor as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (let i = 0; i < cursor.length; i++) {
      const replacement = alphabet[(alphabet.indexOf(cursor[i] as string) + 1 + (i % 7)) % alphabet.length];
      const changed = cursor.slice(0, i) + replacement + cursor.slice(i + 1);
      const result = await call("list_articles", { site: "a", cursor: changed });
      expect(result.isError, `change at ${i}`).toBe(true);
    }
  });

  it("keeps a cursor valid for another session of the same (unauthenticated) client", async () => {
    const { nextCursor } = await page("list_articles", { site: "a" });
    const reconnected = await t.connect();
    const result = await reconnected.callTool({
      name: "list_articles",
      arguments: { site: "a", cursor: nextCursor },
    });
    expect(result.isError).toBeFalsy();
  });

  it("pages a resource template through cursor and limit query variables", async () => {
    const { resourceTemplates } = await t.client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain("articles://{site}{?cursor,limit}");
    const read = async (uri: string) =>
      JSON.parse(
        String(((await t.client.readResource({ uri })).contents[0] as { text?: string }).text),
      ) as Envelope;
    const first = await read("articles://a");
    expect(first.count).toBe(5);
    const second = await read(`articles://a?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((i) => i.slug)).toEqual(["post-10", "post-12"]);
    await expect(t.client.readResource({ uri: "articles://a?cursor=forged" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("without `cursor`"),
    });
  });
});

describe("@Paginated trusting a handler's own page", () => {
  it("does not trust a handler that read ctx.page but returned everything", async () => {
    @McpService()
    class Sloppy {
      @Tool()
      @Paginated("id", { limit: 2 })
      list(_input: unknown, ctx: ToolContext) {
        void ctx.page?.limit;
        return [{ id: "c" }, { id: "a" }, { id: "d" }, { id: "b" }, { id: "e" }];
      }
    }
    @McpModule({ services: [Sloppy] })
    class SloppyModule {}
    const t = await createTestClient(SloppyModule);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const result = await t.client.callTool({ name: "list", arguments: cursor ? { cursor } : {} });
      const page = result.structuredContent as { items: Array<{ id: string }>; nextCursor: string | null };
      seen.push(...page.items.map((item) => item.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(["a", "b", "c", "d", "e"]);
    await t.close();
  });
});
