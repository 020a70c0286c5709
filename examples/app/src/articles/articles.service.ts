import { Budget, McpService, Paginated, Project, Tool, type ToolContext, toolError } from "frugal-mcp";
import { z } from "zod";
import { ArticlesRepository, articleKey } from "./articles.repository.js";

/** What a list item can hold; `fields` picks among these. The body is never listed. */
const LIST_FIELDS = [
  "slug",
  "title",
  "site",
  "author",
  "premium",
  "updatedAt",
  "excerpt",
  "tags",
  "words",
] as const;
const ARTICLE_FIELDS = ["slug", "title", "site", "author", "premium", "updatedAt", "body"] as const;

/**
 * The article catalogue: short, projected pages held to a token budget, and one article at
 * a time with only the fields asked for. A model pages through titles and reads the bodies
 * it needs, instead of receiving the whole catalogue.
 */
@McpService()
export class ArticlesService {
  constructor(private readonly repo: ArticlesRepository) {}

  @Tool({
    // `site` and `fields` say what they do in their own descriptions: the tool's says the rest.
    description:
      "List articles, oldest update first, a page at a time; `aggregate` counts them (e.g. by tags).",
    input: { site: z.string().min(1).max(100).optional().describe("site id: tech, food or travel") },
    annotations: { readOnlyHint: true },
  })
  // Adaptive: a model that peeks sees pages of 10; one that keeps walking gets pages that
  // double (10, 10, 20, 40, …), so reading a whole site takes a handful of calls.
  // The site ends the key: a slug is unique within its site only.
  @Paginated(["updatedAt", "slug", "site"], {
    limit: 10,
    maxLimit: 100,
    adaptive: true,
    fields: LIST_FIELDS,
    defaultFields: ["slug", "title", "updatedAt"],
  })
  // A large page would pass 1,500 tokens: it then shrinks to fit, and its nextCursor
  // follows what was really returned.
  @Budget(1_500)
  async listArticles({ site }: { site?: string }, ctx: ToolContext) {
    // An aggregate is one GROUP BY in SQL (push-down), rather than the framework walking
    // every page; one the SQL cannot answer comes back undefined, and the pages are walked.
    if (ctx.aggregate) {
      const answer = await this.repo.aggregate(site, ctx.aggregate);
      if (answer) return answer;
    }
    const page = ctx.page;
    if (!page) throw new Error("list_articles runs under @Paginated, so ctx.page is always set");
    // Reading ctx.page tells the framework the query is keyset-aware: it trusts the order.
    const rows = await this.repo.page(site, articleKey(page.after), page.limit + 1);
    if (rows.length === 0 && page.after === null && site !== undefined) {
      const sites = await this.repo.sites();
      if (!sites.includes(site))
        return toolError(`Unknown site "${site}". Known sites: ${sites.join(", ")}.`);
    }
    return rows;
  }

  @Tool({
    // `fields` (from @Project) describes itself, its default included.
    description: "One article by slug.",
    input: { slug: z.string().min(1).max(200).describe("slug from list_articles") },
    annotations: { readOnlyHint: true },
  })
  @Project(ARTICLE_FIELDS, { defaultFields: ["slug", "title", "body"] })
  @Budget(3_000)
  async getArticle({ slug }: { slug: string }) {
    const article = await this.repo.get(slug);
    return article ?? toolError(`No article "${slug}". Call list_articles to see the slugs.`);
  }
}
