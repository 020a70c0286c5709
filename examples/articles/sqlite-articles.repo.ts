import Database from "better-sqlite3";
import {
  type Article,
  type ArticleKey,
  type ArticleSummary,
  type ArticlesRepo,
  generateArticles,
} from "./articles.repo.js";

export interface SqliteArticlesOptions {
  /** A file path, or `:memory:` (the default) for a database that lives as long as the process. */
  filename?: string;
  /** Rows to generate when the table is empty (default 5,000; 0 for none). */
  seed?: number;
}

/** The columns a list needs: not the body, which can be long, only its first 120 characters. */
const SUMMARY = "site, slug, title, premium, updated_at, substr(body, 1, 120) AS excerpt";

interface Row {
  site: string;
  slug: string;
  title: string;
  premium: number;
  updated_at: number;
  excerpt: string;
  body?: string;
}

/**
 * The embedded default: better-sqlite3, synchronous and in-process. `updated_at` is stored
 * as epoch milliseconds (an INTEGER), so it compares numerically and converts back to a
 * `Date` exactly; the cursor then carries a `Date`, not a string.
 *
 * @example
 * ```ts
 * const repo = new SqliteArticlesRepo({ filename: "articles.db" });
 * await repo.listAfter("tech", null, 21); // page 1 of 20, plus one row to see if more exist
 * ```
 */
export class SqliteArticlesRepo implements ArticlesRepo {
  readonly db: Database.Database;
  private readonly first: Database.Statement<[string, number], Row>;
  private readonly after: Database.Statement<[string, number, string, number], Row>;
  private readonly newest: Database.Statement<[string, number], Row>;
  private readonly one: Database.Statement<[string, string], Row>;
  private readonly write: Database.Statement<Record<string, unknown>>;

  constructor(options: SqliteArticlesOptions = {}) {
    this.db = new Database(options.filename ?? ":memory:");
    this.db.pragma("journal_mode = WAL");
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS articles (
        site TEXT NOT NULL,
        slug TEXT NOT NULL,
        title TEXT NOT NULL,
        premium INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (site, slug)
      );
      -- The keyset index: equality on site, then the stable key in page order.
      CREATE INDEX IF NOT EXISTS articles_by_key ON articles (site, updated_at, slug);
    `);
    this.first = this.db.prepare(
      `SELECT ${SUMMARY} FROM articles WHERE site = ? ORDER BY updated_at, slug LIMIT ?`,
    );
    // A row-value comparison (SQLite ≥ 3.15) is one index range seek, however deep the page.
    this.after = this.db.prepare(
      `SELECT ${SUMMARY} FROM articles WHERE site = ? AND (updated_at, slug) > (?, ?)
       ORDER BY updated_at, slug LIMIT ?`,
    );
    this.newest = this.db.prepare(
      `SELECT ${SUMMARY} FROM articles WHERE site = ? ORDER BY updated_at DESC, slug DESC LIMIT ?`,
    );
    this.one = this.db.prepare(`SELECT ${SUMMARY}, body FROM articles WHERE site = ? AND slug = ?`);
    this.write = this.db.prepare(
      `INSERT OR REPLACE INTO articles (site, slug, title, premium, updated_at, body)
       VALUES (@site, @slug, @title, @premium, @updatedAt, @body)`,
    );
    const { n } = this.db.prepare("SELECT count(*) AS n FROM articles").get() as { n: number };
    if (n === 0) this.insertNow(generateArticles(options.seed ?? 5_000));
  }

  async listAfter(site: string, after: ArticleKey | null, limit: number): Promise<ArticleSummary[]> {
    const rows = after
      ? this.after.all(site, after.updatedAt.getTime(), after.slug, limit)
      : this.first.all(site, limit);
    return rows.map(toSummary);
  }

  async latest(site: string, n: number): Promise<ArticleSummary[]> {
    return this.newest.all(site, n).map(toSummary);
  }

  async get(site: string, slug: string): Promise<Article | undefined> {
    const row = this.one.get(site, slug);
    return row ? { ...withoutExcerpt(toSummary(row)), body: row.body ?? "" } : undefined;
  }

  async upsert(articles: readonly Article[]): Promise<void> {
    this.insertNow(articles);
  }

  async sites(): Promise<string[]> {
    const rows = this.db.prepare("SELECT DISTINCT site FROM articles ORDER BY site").all() as Row[];
    return rows.map((r) => r.site);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** One transaction for the batch: 5,000 rows take milliseconds instead of seconds. */
  private insertNow(articles: readonly Article[]): void {
    this.db.transaction((batch: readonly Article[]) => {
      for (const a of batch) {
        this.write.run({ ...a, premium: a.premium ? 1 : 0, updatedAt: a.updatedAt.getTime() });
      }
    })(articles);
  }
}

function toSummary(row: Row): ArticleSummary {
  return {
    site: row.site,
    slug: row.slug,
    title: row.title,
    premium: row.premium === 1,
    updatedAt: new Date(row.updated_at),
    excerpt: row.excerpt,
  };
}

function withoutExcerpt({ excerpt: _excerpt, ...rest }: ArticleSummary): Omit<Article, "body"> {
  return rest;
}
