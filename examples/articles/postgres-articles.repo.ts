import pg from "pg";
import { type SqlArticlesOptions, SqlArticlesRepo } from "./sql-articles.repo.js";

export const DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/test";

export interface PostgresArticlesOptions extends SqlArticlesOptions {
  /** Default: `DATABASE_URL`, else `postgres://postgres@127.0.0.1:5432/test`. */
  connectionString?: string | undefined;
  /** Most connections the pool opens (default 5). */
  maxConnections?: number;
}

/**
 * The server-grade store: `SqlArticlesRepo` over a `pg` pool. The pool connects on the
 * first query (in `ready()`), so building the repository is instant.
 *
 * @example
 * ```ts
 * const repo = new PostgresArticlesRepo({ schema: "articles_demo" });
 * await repo.ready();
 * ```
 */
export class PostgresArticlesRepo extends SqlArticlesRepo {
  readonly pool: pg.Pool;
  protected readonly client: pg.Pool;
  private closed = false;

  constructor(options: PostgresArticlesOptions = {}) {
    super(options);
    this.pool = this.client = new pg.Pool({
      connectionString: options.connectionString ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL,
      max: options.maxConnections ?? 5,
    });
    // An idle client that loses its server emits "error" on the pool; unhandled, it would end the process.
    this.pool.on("error", (error) =>
      process.stderr.write(`articles: idle Postgres client: ${error.message}\n`),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
