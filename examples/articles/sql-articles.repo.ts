import {
  type Article,
  type ArticleKey,
  type ArticleSummary,
  type ArticlesRepo,
  generateArticles,
} from "./articles.repo.js";

/**
 * What the repository needs of a PostgreSQL driver: one method, which `pg.Pool` and PGlite
 * both have as they are. The embedded and the server repositories run the same SQL.
 */
export interface SqlClient {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** Options both repositories take. */
export interface SqlArticlesOptions {
  /** Schema that holds the `articles` table (default `frugal_articles`); tests pass a random one. */
  schema?: string;
  /** Rows to generate when the table is empty (default 5,000; 0 for none). */
  seed?: number;
}

/** The columns a list needs: not the body, which can be long, only its first 120 characters. */
const SUMMARY = "site, slug, title, premium, updated_at, substr(body, 1, 120) AS excerpt";

interface Row {
  site: string;
  slug: string;
  title: string;
  premium: boolean;
  updated_at: Date;
  excerpt: string;
  body?: string;
}

/**
 * The articles table on PostgreSQL, over any `SqlClient`: `PgliteArticlesRepo` (embedded)
 * and `PostgresArticlesRepo` (a server) only open their driver.
 *
 * `slug` is declared `COLLATE "C"`, so comparisons, `ORDER BY` and the index all order by
 * bytes (code points), never by the server's locale: with a locale collation "a-b" and
 * "ab" may order differently from what the cursor's last key implies, and rows would be
 * skipped. `updated_at` is a `timestamptz`, which both drivers return as a `Date`, so the
 * cursor keeps the type.
 *
 * @example
 * ```ts
 * const repo = new PgliteArticlesRepo();
 * await repo.ready();                      // creates the schema and table, seeds if empty
 * await repo.listAfter("tech", null, 21);  // page 1 of 20, plus one row to see if more exist
 * ```
 */
export abstract class SqlArticlesRepo implements ArticlesRepo {
  /** The schema-qualified table. */
  readonly table: string;
  protected abstract readonly client: SqlClient;
  private readonly seed: number;
  private setup: Promise<void> | undefined;

  constructor(options: SqlArticlesOptions = {}) {
    const schema = options.schema ?? "frugal_articles";
    // Identifiers cannot be bound as parameters; accept only plain names so none can inject SQL.
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name "${schema}"`);
    this.table = `"${schema}".articles`;
    this.seed = options.seed ?? 5_000;
  }

  /**
   * Creates the schema and table and seeds them once. The app awaits it at start-up (for at
   * most `readyTimeoutMs`); every query awaits it too, so a slow seed never races a call.
   * A failure is retried on the next call rather than cached, so the app recovers once the
   * database is back.
   */
  ready(): Promise<void> {
    this.setup ??= this.migrate().catch((error: unknown) => {
      this.setup = undefined;
      throw error;
    });
    return this.setup;
  }

  async listAfter(site: string, after: ArticleKey | null, limit: number): Promise<ArticleSummary[]> {
    // A row-value comparison is one index range seek, however deep the page.
    const rows = after
      ? await this.query(
          `SELECT ${SUMMARY} FROM ${this.table} WHERE site = $1 AND (updated_at, slug) > ($2, $3)
           ORDER BY updated_at, slug LIMIT $4`,
          [site, after.updatedAt, after.slug, limit],
        )
      : await this.query(
          `SELECT ${SUMMARY} FROM ${this.table} WHERE site = $1 ORDER BY updated_at, slug LIMIT $2`,
          [site, limit],
        );
    return rows.map(toSummary);
  }

  async latest(site: string, n: number): Promise<ArticleSummary[]> {
    const rows = await this.query(
      `SELECT ${SUMMARY} FROM ${this.table} WHERE site = $1 ORDER BY updated_at DESC, slug DESC LIMIT $2`,
      [site, n],
    );
    return rows.map(toSummary);
  }

  async get(site: string, slug: string): Promise<Article | undefined> {
    const [row] = await this.query(
      `SELECT ${SUMMARY}, body FROM ${this.table} WHERE site = $1 AND slug = $2`,
      [site, slug],
    );
    if (!row) return undefined;
    const { excerpt: _excerpt, ...summary } = toSummary(row);
    return { ...summary, body: row.body ?? "" };
  }

  async upsert(articles: readonly Article[]): Promise<void> {
    await this.ready();
    await this.insert(articles);
  }

  async sites(): Promise<string[]> {
    const rows = await this.query(`SELECT DISTINCT site FROM ${this.table} ORDER BY site`, []);
    return rows.map((r) => r.site);
  }

  /** Releases the connection(s); `app.close()` calls it. Safe to call twice. */
  abstract close(): Promise<void>;

  private async query(sql: string, values: unknown[]): Promise<Row[]> {
    await this.ready();
    return (await this.client.query<Row>(sql, values)).rows;
  }

  /** One statement a call: PGlite, like the extended protocol of any driver, takes no batches. */
  private async migrate(): Promise<void> {
    const schema = this.table.slice(0, this.table.indexOf("."));
    await this.client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await this.client.query(`
      CREATE TABLE IF NOT EXISTS ${this.table} (
        site text NOT NULL,
        slug text COLLATE "C" NOT NULL,
        title text NOT NULL,
        premium boolean NOT NULL,
        updated_at timestamptz NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (site, slug)
      )`);
    // The keyset index: equality on site, then the stable key in page order.
    await this.client.query(
      `CREATE INDEX IF NOT EXISTS articles_by_key ON ${this.table} (site, updated_at, slug)`,
    );
    const { rows } = await this.client.query<{ seeded: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${this.table}) AS seeded`,
    );
    if (this.seed > 0 && rows[0]?.seeded !== true) await this.insert(generateArticles(this.seed));
  }

  /** Batches of 1,000 rows through `unnest`, one statement each: 5,000 rows in a few round trips. */
  private async insert(articles: readonly Article[]): Promise<void> {
    for (let start = 0; start < articles.length; start += 1_000) {
      const batch = articles.slice(start, start + 1_000);
      await this.client.query(
        `INSERT INTO ${this.table} (site, slug, title, premium, updated_at, body)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::timestamptz[], $6::text[])
         ON CONFLICT (site, slug) DO UPDATE SET title = excluded.title, premium = excluded.premium,
           updated_at = excluded.updated_at, body = excluded.body`,
        [
          batch.map((a) => a.site),
          batch.map((a) => a.slug),
          batch.map((a) => a.title),
          batch.map((a) => a.premium),
          batch.map((a) => a.updatedAt),
          batch.map((a) => a.body),
        ],
      );
    }
  }
}

function toSummary(row: Row): ArticleSummary {
  return {
    site: row.site,
    slug: row.slug,
    title: row.title,
    premium: row.premium,
    updatedAt: row.updated_at,
    excerpt: row.excerpt,
  };
}
