import pg from "pg";
import { SqlDatabase, type SqlDatabaseOptions } from "./sql-database.js";

/** Options of `PostgresDatabase`. */
export interface PostgresDatabaseOptions extends SqlDatabaseOptions {
  connectionString: string;
  /** Schema holding the tables, created if missing. */
  schema: string;
  /** Most connections the pool opens (default 5). */
  maxConnections?: number;
}

const INT8_OID = 20;

/**
 * The server-grade database: a `pg` pool whose connections use a schema of their own
 * (`search_path`), so the SQL names bare tables, as it does on PGlite. `BIGINT` columns
 * (times in epoch milliseconds, counts) come back as numbers, not strings, as PGlite
 * returns them: every value this app stores is far below 2^53.
 *
 * @example
 * ```ts
 * const db = new PostgresDatabase({ connectionString: "postgres://postgres@127.0.0.1/test", schema: "frugal_app", seed, now: Date.now });
 * ```
 */
export class PostgresDatabase extends SqlDatabase {
  readonly name: string;
  protected readonly client: pg.Pool;
  private readonly schema: string;
  private closed = false;

  constructor(options: PostgresDatabaseOptions) {
    // Identifiers cannot be bound as parameters: accept plain names only, so none can inject SQL.
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema)) {
      throw new Error(`DATABASE_SCHEMA "${options.schema}" is not a plain lower-case identifier`);
    }
    super(options);
    this.schema = options.schema;
    this.name = `PostgreSQL (schema ${options.schema})`;
    this.client = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 5,
      options: `-c search_path=${options.schema}`,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client that loses its server emits "error" on the pool; unhandled, it would end the process.
    this.client.on("error", (error) =>
      process.stderr.write(`app: idle PostgreSQL client: ${error.message}\n`),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.end();
  }

  /** The `search_path` names the schema; it must exist before the first table does. */
  protected override async prepare(): Promise<void> {
    await this.client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
  }
}
