import type { SeedSizes } from "../config/app-config.js";
import { setUpSchema } from "./schema.js";

/** A row as the database returns it. */
export type Row = Record<string, unknown>;

/**
 * What the app needs of a PostgreSQL driver: one method, which `pg.Pool` and PGlite both
 * have as they are (`$1` placeholders in, `{ rows }` out). So the embedded database and
 * the server share every statement, and no repository asks which one it talks to.
 */
export interface SqlClient {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

/** What every database of the app is given. */
export interface SqlDatabaseOptions {
  /** Rows and lines to generate into an empty database. */
  seed: SeedSizes;
  /** The time the generated data is relative to (the app's clock). */
  now: () => number;
}

/**
 * The app's database: PostgreSQL over a `SqlClient`, whose tables are created and seeded
 * on first use. A subclass only opens the driver: `PgliteDatabase` (embedded, the default)
 * or `PostgresDatabase` (a server, `DATABASE_URL`).
 *
 * @example
 * ```ts
 * const db = new PgliteDatabase({ seed: DEFAULT_SEED, now: Date.now });
 * const [{ n }] = await db.query<{ n: number }>("SELECT count(*) AS n FROM articles WHERE site = $1", ["tech"]);
 * await db.close();
 * ```
 */
export abstract class SqlDatabase {
  /** For logs and the banner only. */
  abstract readonly name: string;
  protected abstract readonly client: SqlClient;
  private setup: Promise<void> | undefined;

  constructor(private readonly options: SqlDatabaseOptions) {}

  /**
   * Creates the tables and seeds them when empty; awaited at start-up and by every query.
   * A failure is not remembered, so the next call tries again once the database is back.
   */
  ready(): Promise<void> {
    this.setup ??= (async () => {
      await this.prepare();
      await setUpSchema(this.client, this.options.seed, this.options.now());
    })().catch((error: unknown) => {
      this.setup = undefined;
      throw error;
    });
    return this.setup;
  }

  /** Runs a query with `$1`, `$2`, … placeholders and returns its rows. */
  async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    await this.ready();
    return (await this.client.query<T>(sql, [...params])).rows;
  }

  /** Releases the connection(s); `app.close()` calls it. Safe to call twice. */
  abstract close(): Promise<void>;

  /** What must exist before the tables can be created (a server's schema). */
  protected async prepare(): Promise<void> {}
}

/** DI token of the `SqlDatabase` (the repositories never name a subclass). */
export const SQL_DATABASE = Symbol("SQL_DATABASE");
