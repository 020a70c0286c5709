import pg from "pg";
import type { SeedSizes } from "../config/app-config.js";
import { type SchemaRunner, setUpSchema } from "./schema.js";
import type { Row, SqlDatabase } from "./sql-database.js";

/** Options of `PostgresDatabase`. */
export interface PostgresDatabaseOptions {
  connectionString: string;
  /** Schema holding the tables, created if missing. */
  schema: string;
  seed: SeedSizes;
  now: () => number;
  /** Most connections the pool opens (default 5). */
  maxConnections?: number;
}

/** Rows per INSERT: 1,000 rows of 7 columns stay well under PostgreSQL's 65,535 parameters. */
const BATCH_ROWS = 1_000;
const INT8_OID = 20;

/**
 * The server-grade database: a `pg` pool whose connections use a schema of their own
 * (`search_path`), so the SQL names bare tables. `BIGINT` columns (times in epoch
 * milliseconds, counts) come back as numbers, not strings: every value this app stores
 * is far below 2^53.
 *
 * @example
 * ```ts
 * const db = new PostgresDatabase({ connectionString: "postgres://postgres@127.0.0.1/test", schema: "frugal_app", seed, now: Date.now });
 * ```
 */
export class PostgresDatabase implements SqlDatabase {
  readonly name: string;
  readonly types = { keyText: 'TEXT COLLATE "C"' };
  private readonly pool: pg.Pool;
  private setup: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: PostgresDatabaseOptions) {
    // Identifiers cannot be bound as parameters: accept plain names only, so none can inject SQL.
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema)) {
      throw new Error(`DATABASE_SCHEMA "${options.schema}" is not a plain lower-case identifier`);
    }
    this.name = `PostgreSQL (schema ${options.schema})`;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 5,
      options: `-c search_path=${options.schema}`,
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client that loses its server emits "error" on the pool; unhandled, it would end the process.
    this.pool.on("error", (error) => process.stderr.write(`app: idle PostgreSQL client: ${error.message}\n`));
  }

  /**
   * Creates the schema and tables and seeds them once. A failure is not remembered, so the
   * next call tries again once the database is back.
   */
  ready(): Promise<void> {
    this.setup ??= (async () => {
      await this.pool.query(`CREATE SCHEMA IF NOT EXISTS ${this.options.schema}`);
      await setUpSchema(this.runner, this.options.seed, this.options.now());
    })().catch((error: unknown) => {
      this.setup = undefined;
      throw error;
    });
    return this.setup;
  }

  async query<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    await this.ready();
    return this.run<T>(sql, params);
  }

  async insertMany(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly unknown[])[],
  ): Promise<void> {
    await this.ready();
    return this.insertRows(table, columns, rows);
  }

  /** The setup's own queries run before `ready()` resolves, so they cannot wait for it. */
  private get runner(): SchemaRunner {
    return {
      types: this.types,
      query: <T extends Row>(sql: string, params?: readonly unknown[]) => this.run<T>(sql, params),
      insertMany: (table, columns, rows) => this.insertRows(table, columns, rows),
    };
  }

  private async run<T extends Row = Row>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    let n = 0;
    const result = await this.pool.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params as unknown[],
    );
    return result.rows as T[];
  }

  private async insertRows(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly unknown[])[],
  ): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      for (let start = 0; start < rows.length; start += BATCH_ROWS) {
        const batch = rows.slice(start, start + BATCH_ROWS);
        let n = 0;
        const values = batch.map(() => `(${columns.map(() => `$${++n}`).join(", ")})`).join(", ");
        await client.query(`INSERT INTO ${table} (${columns.join(", ")}) VALUES ${values}`, batch.flat());
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}
