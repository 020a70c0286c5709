import { McpError } from "@modelcontextprotocol/sdk/types.js";
import {
  Inject,
  McpService,
  Paginated,
  RESOURCE_NOT_FOUND,
  Resource,
  resourceLink,
  Tool,
  type ToolContext,
  toolError,
} from "frugal-mcp";
import { z } from "zod";
import {
  ARTICLES_REPO,
  type ArticleSummary,
  type ArticlesRepo,
  articleKey,
  articleUri,
} from "./articles.repo.js";

/** What a list item can hold; `fields` picks among these. The body is never listed. */
const LIST_FIELDS = ["uri", "slug", "title", "updatedAt", "premium", "excerpt", "site"] as const;

/**
 * The catalogue: a paginated list whose items point at a resource with the full body,
 * so a model pages through short rows and reads only the articles it needs.
 */
@McpService()
export class ArticlesService {
  constructor(@Inject(ARTICLES_REPO) private readonly repo: ArticlesRepo) {}

  @Tool({
    description:
      "List a site's articles, oldest update first. Each item has a `uri`; read it for the full body.",
    input: { site: z.string().min(1).max(100).describe("site id, e.g. tech") },
    annotations: { readOnlyHint: true },
  })
  // adaptive: a model that reads the whole catalogue gets pages of 20, 20, 40, 50, 50, …
  // (fewer calls); one that looks at the first page pays the same as with fixed pages.
  @Paginated(["updatedAt", "slug"], {
    limit: 20,
    maxLimit: 50,
    adaptive: true,
    fields: LIST_FIELDS,
    defaultFields: ["uri", "title", "updatedAt", "premium"],
  })
  async listArticles({ site }: { site: string }, ctx: ToolContext) {
    // Reading ctx.page tells the framework the query is keyset-aware: it then trusts the
    // database's order and only cuts the extra row off, instead of sorting in memory.
    // page.limit is this page's size, already grown when the walk has gone on a while.
    const page = ctx.page;
    if (!page) throw new Error("list_articles runs under @Paginated, so ctx.page is always set");
    const rows = await this.repo.listAfter(site, articleKey(page.after), page.limit + 1);
    if (rows.length === 0 && page.after === null) {
      // Tell a model that misspelt the site so, rather than answer an empty page.
      const sites = await this.repo.sites();
      if (!sites.includes(site))
        return toolError(`Unknown site "${site}". Known sites: ${sites.join(", ")}.`);
    }
    return rows.map(withUri);
  }

  @Tool({
    description: "Links to the most recently updated articles of a site, newest first.",
    input: { site: z.string().min(1).max(100), n: z.number().int().min(1).max(10).default(5) },
    annotations: { readOnlyHint: true },
  })
  async latestArticles({ site, n }: { site: string; n: number }) {
    // resource_link blocks cost a few tokens each; the client reads a body only if it wants it.
    // (A @Paginated tool returns an envelope of items, so links live in a tool of their own.)
    const rows = await this.repo.latest(site, n);
    if (rows.length === 0) return toolError(`No articles for site "${site}".`);
    return rows.map((a) =>
      resourceLink({
        uri: articleUri(a.site, a.slug),
        name: a.slug,
        title: a.title,
        mimeType: "application/json",
      }),
    );
  }

  @Resource("articles://{site}/{slug}", {
    description: "One article in full, body included",
    mimeType: "application/json",
    complete: {
      async site(this: ArticlesService, prefix: string) {
        return (await this.repo.sites()).filter((s) => s.startsWith(prefix));
      },
    },
  })
  async readArticle({ site, slug }: { site: string; slug: string }) {
    const article = await this.repo.get(site, slug);
    if (!article) {
      const uri = articleUri(site, slug);
      throw new McpError(RESOURCE_NOT_FOUND, `No article ${uri}`, { uri });
    }
    return { ...article, uri: articleUri(site, slug) };
  }
}

function withUri(row: ArticleSummary) {
  return { ...row, uri: articleUri(row.site, row.slug) };
}
