import { PGlite } from "@electric-sql/pglite";
import { SqlDatabase, type SqlDatabaseOptions } from "./sql-database.js";

/** Options of `PgliteDatabase`. */
export interface PgliteDatabaseOptions extends SqlDatabaseOptions {
  /** A directory to keep the database in; without it the database lives in memory for the life of the process. */
  dataDir?: string | undefined;
}

/**
 * The embedded default: PGlite, PostgreSQL compiled to WebAssembly and run in this
 * process. Nothing to install or compile, and the same SQL as `PostgresDatabase`.
 *
 * @example
 * ```ts
 * const db = new PgliteDatabase({ seed: DEFAULT_SEED, now: Date.now });
 * await db.ready();
 * await db.query("SELECT count(*) AS n FROM articles");
 * ```
 */
export class PgliteDatabase extends SqlDatabase {
  readonly name: string;
  protected readonly client: PGlite;

  constructor(options: PgliteDatabaseOptions) {
    super(options);
    this.name = `PGlite (${options.dataDir ?? "in memory"})`;
    this.client = new PGlite(options.dataDir);
  }

  async close(): Promise<void> {
    if (!this.client.closed) await this.client.close();
  }
}
