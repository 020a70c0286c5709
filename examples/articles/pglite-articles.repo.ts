import { PGlite } from "@electric-sql/pglite";
import { type SqlArticlesOptions, SqlArticlesRepo } from "./sql-articles.repo.js";

export interface PgliteArticlesOptions extends SqlArticlesOptions {
  /** A directory to keep the database in; without it (the default) it lives in memory as long as the process. */
  dataDir?: string | undefined;
}

/**
 * The embedded default: `SqlArticlesRepo` on PGlite, PostgreSQL compiled to WebAssembly and
 * run in this process, so there is nothing to install or compile. The database starts on
 * the first query (in `ready()`), so building the repository, or closing one never used,
 * is instant.
 *
 * @example
 * ```ts
 * const repo = new PgliteArticlesRepo({ dataDir: ".data/articles" });
 * await repo.listAfter("tech", null, 21); // page 1 of 20, plus one row to see if more exist
 * ```
 */
export class PgliteArticlesRepo extends SqlArticlesRepo {
  private db: PGlite | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly options: PgliteArticlesOptions = {}) {
    super(options);
  }

  /** Whether `close()` was called; a closed repository does not start its database again. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  protected get client(): PGlite {
    if (this.closing) throw new Error("the articles repository is closed");
    this.db ??= new PGlite(this.options.dataDir);
    return this.db;
  }

  close(): Promise<void> {
    this.closing ??= this.db?.close() ?? Promise.resolve();
    return this.closing;
  }
}
