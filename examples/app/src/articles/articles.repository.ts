import { Inject, Injectable, type StableKeyValue } from "frugal-mcp";
import { SQL_DATABASE, type SqlDatabase } from "../database/sql-database.js";

/** One article, body included. */
export interface Article {
  site: string;
  slug: string;
  title: string;
  author: string;
  premium: boolean;
  updatedAt: Date;
  body: string;
}

/** A list row: no body, an excerpt instead. */
export type ArticleSummary = Omit<Article, "body"> & { excerpt: string };

/** Where a page starts: the stable key of the last row already returned. */
export interface ArticleKey {
  updatedAt: Date;
  slug: string;
}

interface ArticleRow extends Record<string, unknown> {
  site: string;
  slug: string;
  title: string;
  author: string;
  premium: number;
  updated_at: number;
  excerpt?: string;
  body?: string;
}

const SUMMARY = "site, slug, title, author, premium, updated_at, substr(body, 1, 100) AS excerpt";

/**
 * The articles table. Pages are keyset queries on `(updated_at, slug)`: the condition goes
 * into SQL with the key from the cursor, so page 100 costs what page 1 costs.
 *
 * @example
 * ```ts
 * await repo.page("tech", null, 21); // page 1 of 20, plus one row to tell whether more exist
 * ```
 */
@Injectable()
export class ArticlesRepository {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  /** At most `limit` rows of `site` (every site when undefined) after `after`, in key order. */
  async page(site: string | undefined, after: ArticleKey | null, limit: number): Promise<ArticleSummary[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    /** `$n` for the next parameter. */
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (site !== undefined) where.push(`site = ${bind(site)}`);
    if (after) where.push(`(updated_at, slug) > (${bind(after.updatedAt.getTime())}, ${bind(after.slug)})`);
    const rows = await this.db.query<ArticleRow>(
      `SELECT ${SUMMARY} FROM articles ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY updated_at, slug LIMIT ${bind(limit)}`,
      params,
    );
    return rows.map(toSummary);
  }

  async get(slug: string): Promise<Article | undefined> {
    const [row] = await this.db.query<ArticleRow>(
      "SELECT site, slug, title, author, premium, updated_at, body FROM articles WHERE slug = $1 LIMIT 1",
      [slug],
    );
    if (!row) return undefined;
    const { excerpt: _excerpt, ...summary } = toSummary(row);
    return { ...summary, body: row.body ?? "" };
  }

  /** Every article, body included: what a tool without frugal-mcp would answer (the demo's baseline). */
  async all(site?: string): Promise<Article[]> {
    const rows = await this.db.query<ArticleRow>(
      `SELECT site, slug, title, author, premium, updated_at, body FROM articles
       ${site === undefined ? "" : "WHERE site = $1"} ORDER BY updated_at, slug`,
      site === undefined ? [] : [site],
    );
    return rows.map((row) => {
      const { excerpt: _excerpt, ...summary } = toSummary(row);
      return { ...summary, body: row.body ?? "" };
    });
  }

  async sites(): Promise<string[]> {
    const rows = await this.db.query<{ site: string }>("SELECT DISTINCT site FROM articles ORDER BY site");
    return rows.map((r) => r.site);
  }
}

/**
 * Reads `ctx.page.after` back as an `ArticleKey`. Cursors are signed and bound to the tool,
 * so anything else means the key changed shape since the cursor was issued.
 */
export function articleKey(after: Readonly<Record<string, StableKeyValue>> | null): ArticleKey | null {
  if (after === null) return null;
  const { updatedAt, slug } = after;
  if (!(updatedAt instanceof Date) || typeof slug !== "string") {
    throw new Error("the cursor does not hold an (updatedAt, slug) key; start again without `cursor`");
  }
  return { updatedAt, slug };
}

function toSummary(row: ArticleRow): ArticleSummary {
  return {
    site: row.site,
    slug: row.slug,
    title: row.title,
    author: row.author,
    premium: Number(row.premium) === 1,
    updatedAt: new Date(Number(row.updated_at)),
    excerpt: row.excerpt ?? "",
  };
}
