/** A row as the database returns it. */
export type Row = Record<string, unknown>;

/**
 * The little SQL the repositories need, the same on SQLite and PostgreSQL: `?`
 * placeholders, row values (`(a, b) > (?, ?)`), `ON CONFLICT … DO UPDATE`, integers for
 * times (epoch milliseconds) and booleans. Where the dialects differ (a column type), the
 * database says what to write (`types`), so no repository asks which one it talks to.
 */
export interface SqlDatabase {
  /** For logs and the banner only. */
  readonly name: string;
  /** Column types that differ between dialects. */
  readonly types: {
    /**
     * A text column that is part of a keyset (a stable key): ordered by code point, as
     * cursors compare (`TEXT COLLATE "C"` on PostgreSQL, plain `TEXT` on SQLite).
     */
    readonly keyText: string;
  };
  /** Runs a query with `?` placeholders and returns its rows. */
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Inserts rows in batches, in one transaction. */
  insertMany(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
  /** Creates the tables and seeds them when empty (awaited at start-up and by every query). */
  ready(): Promise<void>;
  /** Releases the connection(s); `app.close()` calls it. */
  close(): Promise<void>;
}

/** DI token of the `SqlDatabase` (an interface has no runtime value to inject by). */
export const SQL_DATABASE = Symbol("SQL_DATABASE");
