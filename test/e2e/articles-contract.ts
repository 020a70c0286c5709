/**
 * The behaviour both articles repositories must show through the real MCP client:
 * articles-pglite.test.ts and articles-postgres.test.ts each run it on their own store.
 * (Not a *.test.ts file itself, so vitest runs it only through those two.)
 */
import { createTestClient, type TestClient } from "frugal-mcp";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { ArticlesModule } from "../../examples/articles/app.module.js";
import {
  ARTICLES_REPO,
  type Article,
  type ArticlesRepo,
  compareByKey,
  generateArticles,
} from "../../examples/articles/articles.repo.js";

/** What the repositories seed by default: the tests compare against this, not against the database. */
export const SEEDED = generateArticles(5_000);

type Item = Record<string, unknown>;
interface Envelope {
  items: Item[];
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
}

/** The slugs of a site in page order, computed in JS: an oracle independent of SQL. */
export function expectedSlugs(rows: readonly Article[], site: string): string[] {
  return rows
    .filter((a) => a.site === site)
    .sort(compareByKey)
    .map((a) => a.slug);
}

/**
 * Registers the shared tests. `open` returns a ready repository seeded with `SEEDED`; the app
 * closes it (and so its connections) in `afterAll`, then `cleanUp` runs (e.g. dropping a
 * test schema once no pooled connection uses it).
 */
export function articlesContract(open: () => Promise<ArticlesRepo>, cleanUp?: () => Promise<void>): void {
  let t: TestClient;
  let repo: ArticlesRepo;

  beforeAll(async () => {
    repo = await open();
    t = await createTestClient(ArticlesModule, {
      cursorSecret: "articles-test-secret-0123456789",
      providers: [{ provide: ARTICLES_REPO, useValue: repo }],
    });
  });
  afterAll(async () => {
    try {
      await t?.close();
    } finally {
      await cleanUp?.();
    }
  });

  const call = (args: Record<string, unknown>) =>
    t.client.callTool({ name: "list_articles", arguments: args });
  const page = async (args: Record<string, unknown>): Promise<Envelope> => {
    const result = await call(args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as unknown as Envelope;
  };
  /** How many pages an adaptive walk (no `limit`) of `rows` rows takes: 20, 20, 40, then 50 each. */
  const adaptivePages = (rows: number) => {
    let pages = 0;
    for (let read = 0; read < rows; pages++) read += [20, 20, 40][pages] ?? 50;
    return pages;
  };
  /** Follows nextCursor to the end. */
  const walk = async (args: Record<string, unknown>) => {
    const items: Item[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const envelope: Envelope = await page(cursor ? { ...args, cursor } : args);
      expect(envelope.count).toBe(envelope.items.length);
      expect(envelope.hasMore).toBe(envelope.nextCursor !== null);
      items.push(...envelope.items);
      cursor = envelope.nextCursor;
      pages++;
    } while (cursor);
    return { items, pages };
  };

  it("walks every row of a site exactly once, in (updatedAt, slug) order", async () => {
    for (const site of ["tech", "food", "travel"]) {
      const expected = expectedSlugs(SEEDED, site);
      const { items, pages } = await walk({ site, limit: 50, fields: ["slug"] });
      expect(items.map((i) => i.slug)).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / 50));
    }
    // Without `limit`, pages are adaptive: 20, 20, 40, then 50 (maxLimit), over the same rows.
    const { items, pages } = await walk({ site: "tech", fields: ["slug"] });
    expect(items.map((i) => i.slug)).toEqual(expectedSlugs(SEEDED, "tech"));
    expect(pages).toBe(adaptivePages(items.length));
    expect(pages).toBeLessThan(Math.ceil(items.length / 20));
  });

  it("pushes the page into the query: after as a typed key, limit + 1 rows, clamped to maxLimit", async () => {
    const listAfter = vi.spyOn(repo, "listAfter");
    try {
      const first = await page({ site: "food", limit: 7 });
      expect(listAfter).toHaveBeenLastCalledWith("food", null, 8);
      await page({ site: "food", limit: 500, cursor: first.nextCursor });
      const [, after, limit] = listAfter.mock.lastCall ?? [];
      expect(after?.updatedAt).toBeInstanceOf(Date);
      expect(after?.slug).toBe(expectedSlugs(SEEDED, "food")[6]);
      expect(limit).toBe(51);
    } finally {
      listAfter.mockRestore();
    }
  });

  it("projects fields, defaults to uri/title/updatedAt/premium, and each uri reads the full body", async () => {
    const defaults = await page({ site: "tech", limit: 3 });
    expect(defaults.items.map((i) => Object.keys(i).sort())).toEqual(
      Array(3).fill(["premium", "title", "updatedAt", "uri"]),
    );
    const chosen = await page({ site: "tech", limit: 3, fields: ["slug", "excerpt"] });
    expect(chosen.items.map((i) => Object.keys(i).sort())).toEqual(Array(3).fill(["excerpt", "slug"]));
    const [first] = expectedSlugs(SEEDED, "tech");
    const article = SEEDED.find((a) => a.site === "tech" && a.slug === first) as Article;
    expect(defaults.items[0]).toEqual({
      uri: `articles://tech/${first}`,
      title: article.title,
      updatedAt: article.updatedAt.toISOString(),
      premium: article.premium,
    });
    expect(chosen.items[0]?.excerpt).toBe(article.body.slice(0, 120));
    const read = await t.client.readResource({ uri: defaults.items[0]?.uri as string });
    expect(JSON.parse(String((read.contents[0] as { text: string }).text))).toMatchObject({
      slug: first,
      body: article.body,
    });
    const bad = await call({ site: "tech", fields: ["body"] });
    expect(bad.isError).toBe(true);
  });

  it("never repeats or skips rows that existed throughout while rows are inserted mid-walk", async () => {
    const site = "scratch";
    const original = generateArticles(240, { sites: [site], since: Date.UTC(2024, 0, 1) });
    await repo.upsert(original);
    const inserted = { before: [] as string[], after: [] as string[] };
    const row = (updatedAt: Date, slug: string): Article => ({
      site,
      slug,
      title: slug,
      premium: false,
      updatedAt,
      body: "inserted mid-walk",
    });
    /** Inserts rows on both sides of the cursor, two of them at the very same instant as it. */
    const insertAround = async (last: Item, tag: string) => {
      const cursorKey = { updatedAt: new Date(last.updatedAt as string), slug: String(last.slug) };
      const before = [
        row(new Date(Date.UTC(2023, 0, 1)), `zz-old-${tag}`), // older than every row
        row(cursorKey.updatedAt, `${cursorKey.slug.slice(0, -1)}-${tag}`), // same instant, smaller slug
      ];
      const after = [
        row(new Date(Date.UTC(2030, 0, 1)), `aa-new-${tag}`), // newer than every row
        row(cursorKey.updatedAt, `${cursorKey.slug}~${tag}`), // same instant, larger slug
      ];
      expect(before.map((r) => Math.sign(compareByKey(r, cursorKey)))).toEqual([-1, -1]);
      expect(after.map((r) => Math.sign(compareByKey(r, cursorKey)))).toEqual([1, 1]);
      await repo.upsert([...before, ...after]);
      inserted.before.push(...before.map((r) => r.slug));
      inserted.after.push(...after.map((r) => r.slug));
    };

    const seen: Item[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const envelope: Envelope = await page({
        site,
        limit: 20,
        fields: ["slug", "updatedAt"],
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...envelope.items);
      cursor = envelope.nextCursor;
      pages++;
      if (pages === 3 || pages === 7) await insertAround(seen[seen.length - 1] as Item, `p${pages}`);
    } while (cursor);

    const slugs = seen.map((i) => String(i.slug));
    expect(new Set(slugs).size).toBe(slugs.length);
    const originals = new Set(original.map((a) => a.slug));
    expect(slugs.filter((s) => originals.has(s))).toEqual(expectedSlugs(original, site));
    for (const slug of inserted.before) expect(slugs).not.toContain(slug);
    for (const slug of inserted.after) expect(slugs).toContain(slug);
    const key = (item: Item) => ({ updatedAt: new Date(item.updatedAt as string), slug: String(item.slug) });
    for (let i = 1; i < seen.length; i++) {
      expect(compareByKey(key(seen[i - 1] as Item), key(seen[i] as Item))).toBeLessThan(0);
    }
  });

  it("orders slugs by code unit, whatever the database's locale", async () => {
    const slugs = ["a-b", "ab", "B", "a", "_x", "Z9", "é", "e", "a b", "Ä"];
    const when = new Date(Date.UTC(2024, 5, 1));
    await repo.upsert(
      slugs.map((slug) => ({
        site: "collation",
        slug,
        title: slug,
        premium: true,
        updatedAt: when,
        body: slug,
      })),
    );
    const { items } = await walk({ site: "collation", limit: 3, fields: ["slug", "uri"] });
    expect(items.map((i) => i.slug)).toEqual([...slugs].sort());
    expect(items.find((i) => i.slug === "a b")?.uri).toBe("articles://collation/a%20b");
  });

  it("refuses a cursor from site A for site B", async () => {
    const { nextCursor } = await page({ site: "tech", limit: 5 });
    const refused = await call({ site: "food", cursor: nextCursor });
    expect(refused.isError).toBe(true);
    const message = (refused.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(message).toContain("another tool, other arguments");
    expect(message).toContain("without `cursor`");
    // The same cursor is still good for the site it came from.
    expect((await page({ site: "tech", cursor: nextCursor, limit: 5 })).count).toBe(5);
  });

  it("answers an unknown site, a missing article and latest links plainly", async () => {
    const unknown = await call({ site: "nowhere" });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain("Known sites");
    await expect(t.client.readResource({ uri: "articles://tech/no-such-slug" })).rejects.toMatchObject({
      code: -32002,
    });
    const latest = await t.client.callTool({ name: "latest_articles", arguments: { site: "travel", n: 3 } });
    const newest = expectedSlugs(SEEDED, "travel").slice(-3).reverse();
    expect(latest.content).toEqual(
      newest.map((slug) =>
        expect.objectContaining({ type: "resource_link", uri: `articles://travel/${slug}` }),
      ),
    );
  });
}
