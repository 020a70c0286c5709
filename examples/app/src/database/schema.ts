import type { SeedSizes } from "../config/app-config.js";
import { DEFAULT_SETTINGS, generateAppLogs, generateArticles } from "./seed-data.js";
import type { SqlClient } from "./sql-database.js";

/**
 * The tables. Times are epoch milliseconds (`BIGINT`), `premium` is 0/1. Text that is part
 * of a keyset (a stable key) is `COLLATE "C"`: ordered by code point, as cursors compare,
 * whatever the server's locale.
 */
const TABLES = [
  `CREATE TABLE IF NOT EXISTS articles (
    site TEXT COLLATE "C" NOT NULL, slug TEXT COLLATE "C" NOT NULL, title TEXT NOT NULL,
    author TEXT NOT NULL, premium INTEGER NOT NULL, updated_at BIGINT NOT NULL, body TEXT NOT NULL,
    PRIMARY KEY (site, slug))`,
  // The keyset index: equality on site, then the stable key in page order.
  "CREATE INDEX IF NOT EXISTS articles_by_key ON articles (site, updated_at, slug)",
  "CREATE INDEX IF NOT EXISTS articles_all_by_key_site ON articles (updated_at, slug, site)",
  `CREATE TABLE IF NOT EXISTS app_logs (
    seq BIGINT PRIMARY KEY, at BIGINT NOT NULL, level TEXT NOT NULL, service TEXT NOT NULL,
    message TEXT NOT NULL)`,
  "CREATE INDEX IF NOT EXISTS app_logs_by_time ON app_logs (at, seq)",
  `CREATE TABLE IF NOT EXISTS settings (
    key TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS metric_samples (
    name TEXT NOT NULL, value DOUBLE PRECISION NOT NULL, at BIGINT NOT NULL)`,
];

/**
 * Creates the tables and, when they are empty, fills them with generated data timed
 * relative to `now` (the articles over the last year, the logs over the last day). A
 * database that already holds data keeps it: a server, or a PGlite directory, is seeded once.
 */
export async function setUpSchema(db: SqlClient, seed: SeedSizes, now: number): Promise<void> {
  for (const statement of TABLES) await db.query(statement);
  if (await isEmpty(db, "articles")) {
    await insertRows(
      db,
      "articles",
      ["site", "slug", "title", "author", "premium", "updated_at", "body"],
      generateArticles(seed.articles, now),
    );
  }
  if (await isEmpty(db, "app_logs")) {
    await insertRows(
      db,
      "app_logs",
      ["seq", "at", "level", "service", "message"],
      generateAppLogs(seed.appLogLines, now),
    );
  }
  if (await isEmpty(db, "settings")) {
    await insertRows(
      db,
      "settings",
      ["key", "value", "updated_at"],
      DEFAULT_SETTINGS.map(([key, value]) => [key, value, now]),
    );
  }
}

async function isEmpty(db: SqlClient, table: string): Promise<boolean> {
  const { rows } = await db.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS empty`);
  return rows[0]?.empty === true;
}

/**
 * Inserts rows in one statement with one parameter: `json_populate_recordset` types each
 * value by the table's own column, so 50,000 rows are one round trip, atomic without a
 * transaction, and far from PostgreSQL's limit of 65,535 parameters.
 */
async function insertRows(
  db: SqlClient,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  if (rows.length === 0) return;
  const records = rows.map((row) => Object.fromEntries(columns.map((column, i) => [column, row[i]])));
  const list = columns.join(", ");
  await db.query(
    `INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1)`,
    [JSON.stringify(records)],
  );
}
