import { Inject, Injectable } from "frugal-mcp";
import { SQL_DATABASE, type SqlDatabase } from "../database/sql-database.js";

/** The app's settings, as `config://app` serves them. */
export interface AppSettings {
  settings: Record<string, string>;
  updatedAt: string;
}

/** Figures computed over the whole database: the kind of query a cache exists for. */
export interface MetricsSummary {
  articles: { total: number; premium: number; bySite: Record<string, number> };
  logs: { total: number; first: string | null; last: string | null; byLevel: Record<string, number> };
  samples: Record<string, { count: number; avg: number; last: number }>;
}

/**
 * Settings and metrics in the database. `queries` counts what really reached it, so the
 * demo and the tests can show which reads the cache answered.
 */
@Injectable()
export class SettingsRepository {
  readonly queries = { settings: 0, metrics: 0 };

  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async settings(): Promise<AppSettings> {
    this.queries.settings++;
    const rows = await this.db.query<{ key: string; value: string; updated_at: number }>(
      "SELECT key, value, updated_at FROM settings ORDER BY key",
    );
    const updatedAt = Math.max(0, ...rows.map((r) => Number(r.updated_at)));
    return {
      settings: Object.fromEntries(rows.map((r) => [r.key, r.value])),
      updatedAt: new Date(updatedAt).toISOString(),
    };
  }

  async set(key: string, value: string, at: number): Promise<void> {
    await this.db.query(
      `INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [key, value, at],
    );
  }

  async record(name: string, value: number, at: number): Promise<void> {
    await this.db.query("INSERT INTO metric_samples (name, value, at) VALUES ($1, $2, $3)", [
      name,
      value,
      at,
    ]);
  }

  async metrics(): Promise<MetricsSummary> {
    this.queries.metrics++;
    const sites = await this.db.query<{ site: string; n: number; premium: number }>(
      "SELECT site, count(*) AS n, sum(premium) AS premium FROM articles GROUP BY site ORDER BY site",
    );
    const levels = await this.db.query<{ level: string; n: number }>(
      "SELECT level, count(*) AS n FROM app_logs GROUP BY level ORDER BY level",
    );
    const [range] = await this.db.query<{ first: number | null; last: number | null }>(
      "SELECT min(at) AS first, max(at) AS last FROM app_logs",
    );
    const samples = await this.db.query<{ name: string; n: number; avg: number; last: number }>(
      `SELECT name, count(*) AS n, avg(value) AS avg,
              (SELECT value FROM metric_samples l WHERE l.name = s.name ORDER BY at DESC LIMIT 1) AS last
       FROM metric_samples s GROUP BY name ORDER BY name`,
    );
    const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(Number(ms)).toISOString());
    return {
      articles: {
        total: sites.reduce((sum, r) => sum + Number(r.n), 0),
        premium: sites.reduce((sum, r) => sum + Number(r.premium), 0),
        bySite: Object.fromEntries(sites.map((r) => [r.site, Number(r.n)])),
      },
      logs: {
        total: levels.reduce((sum, r) => sum + Number(r.n), 0),
        first: iso(range?.first),
        last: iso(range?.last),
        byLevel: Object.fromEntries(levels.map((r) => [r.level, Number(r.n)])),
      },
      samples: Object.fromEntries(
        samples.map((r) => [
          r.name,
          { count: Number(r.n), avg: Math.round(Number(r.avg) * 100) / 100, last: Number(r.last) },
        ]),
      ),
    };
  }
}
