import type { SeedSizes } from "../config/app-config.js";
import { DEFAULT_SETTINGS, generateAppLogs, generateArticles } from "./seed-data.js";
import type { SqlDatabase } from "./sql-database.js";

/** What setting up needs of a database: its queries, before `ready()` has resolved. */
export type SchemaRunner = Pick<SqlDatabase, "types" | "query" | "insertMany">;

/** The tables, in the SQL both dialects accept (times are epoch milliseconds, booleans 0/1). */
function tables(db: SchemaRunner): string[] {
  const key = db.types.keyText;
  return [
    `CREATE TABLE IF NOT EXISTS articles (
      site ${key} NOT NULL, slug ${key} NOT NULL, title TEXT NOT NULL, author TEXT NOT NULL,
      premium INTEGER NOT NULL, updated_at BIGINT NOT NULL, body TEXT NOT NULL,
      PRIMARY KEY (site, slug))`,
    // The keyset index: equality on site, then the stable key in page order.
    "CREATE INDEX IF NOT EXISTS articles_by_key ON articles (site, updated_at, slug)",
    "CREATE INDEX IF NOT EXISTS articles_all_by_key ON articles (updated_at, slug)",
    `CREATE TABLE IF NOT EXISTS app_logs (
      seq BIGINT PRIMARY KEY, at BIGINT NOT NULL, level TEXT NOT NULL, service TEXT NOT NULL,
      message TEXT NOT NULL)`,
    "CREATE INDEX IF NOT EXISTS app_logs_by_time ON app_logs (at, seq)",
    `CREATE TABLE IF NOT EXISTS settings (
      key ${key} PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS metric_samples (
      name TEXT NOT NULL, value DOUBLE PRECISION NOT NULL, at BIGINT NOT NULL)`,
  ];
}

/**
 * Creates the tables and, when they are empty, fills them with generated data timed
 * relative to `now` (the articles over the last year, the logs over the last day). A
 * database that already holds data keeps it: PostgreSQL is seeded once.
 */
export async function setUpSchema(db: SchemaRunner, seed: SeedSizes, now: number): Promise<void> {
  for (const statement of tables(db)) await db.query(statement);
  const [articles] = await db.query<{ n: number }>("SELECT count(*) AS n FROM articles");
  if (Number(articles?.n ?? 0) === 0) {
    await db.insertMany(
      "articles",
      ["site", "slug", "title", "author", "premium", "updated_at", "body"],
      generateArticles(seed.articles, now),
    );
  }
  const [logs] = await db.query<{ n: number }>("SELECT count(*) AS n FROM app_logs");
  if (Number(logs?.n ?? 0) === 0) {
    await db.insertMany(
      "app_logs",
      ["seq", "at", "level", "service", "message"],
      generateAppLogs(seed.appLogLines, now),
    );
  }
  const [settings] = await db.query<{ n: number }>("SELECT count(*) AS n FROM settings");
  if (Number(settings?.n ?? 0) === 0) {
    await db.insertMany(
      "settings",
      ["key", "value", "updated_at"],
      DEFAULT_SETTINGS.map(([key, value]) => [key, value, now]),
    );
  }
}
