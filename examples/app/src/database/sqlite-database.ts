import Database from "better-sqlite3";
import type { SeedSizes } from "../config/app-config.js";
import { type SchemaRunner, setUpSchema } from "./schema.js";
import type { Row, SqlDatabase } from "./sql-database.js";

/** Options of `SqliteDatabase`. */
export interface SqliteDatabaseOptions {
  /** A file, or `:memory:` (default): a database that lives as long as the process. */
  filename?: string | undefined;
  seed: SeedSizes;
  /** The time the generated data is relative to (the app's clock). */
  now: () => number;
}

/**
 * The embedded default: better-sqlite3, in-process and synchronous, seeded with
 * generated data on first use. Statements are prepared once and kept.
 *
 * @example
 * ```ts
 * const db = new SqliteDatabase({ seed: DEFAULT_SEED, now: Date.now });
 * await db.ready();
 * await db.query("SELECT count(*) AS n FROM articles");
 * ```
 */
export class SqliteDatabase implements SqlDatabase {
  readonly name: string;
  readonly types = { keyText: "TEXT" };
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private setup: Promise<void> | undefined;

  constructor(private readonly options: SqliteDatabaseOptions) {
    const filename = options.filename ?? ":memory:";
    this.name = `SQLite (${filename === ":memory:" ? "in memory" : filename})`;
    this.db = new Database(filename);
    this.db.pragma("journal_mode = WAL");
  }

  ready(): Promise<void> {
    this.setup ??= setUpSchema(this.runner, this.options.seed, this.options.now());
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
    const statement = this.prepare(sql);
    if (!statement.reader) {
      statement.run(...params);
      return [];
    }
    return statement.all(...params) as T[];
  }

  private async insertRows(
    table: string,
    columns: readonly string[],
    rows: readonly (readonly unknown[])[],
  ): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
    );
    // One transaction: thousands of rows take milliseconds instead of seconds.
    this.db.transaction(() => {
      for (const row of rows) insert.run(...row);
    })();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
