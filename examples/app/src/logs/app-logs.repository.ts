import { Inject, Injectable } from "frugal-mcp";
import { SQL_DATABASE, type SqlDatabase } from "../database/sql-database.js";
import type { LogEntry, LogKey, LogSource } from "./log-source.js";

interface LogRow extends Record<string, unknown> {
  seq: number;
  at: number;
  level: string;
  service: string;
  message: string;
}

/**
 * The application's own log, in the `app_logs` table. Windows are index range scans on
 * `(at, seq)`; a search scans the table (a real deployment would use a full-text index).
 */
@Injectable()
export class AppLogsRepository implements LogSource {
  constructor(@Inject(SQL_DATABASE) private readonly db: SqlDatabase) {}

  async search(text: string, max: number): Promise<LogEntry[]> {
    // strpos: a case-sensitive substring match, with no wildcard in `text` to escape.
    const rows = await this.db.query<LogRow>(
      `SELECT seq, at, level, service, message FROM app_logs
       WHERE strpos(level || ' ' || service || ' ' || message, $1) > 0 ORDER BY at, seq LIMIT $2`,
      [text, max],
    );
    return rows.map(toEntry);
  }

  async window(
    since: number | null,
    until: number | null,
    after: LogKey | null,
    limit: number,
  ): Promise<LogEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    /** `$n` for the next parameter. */
    const bind = (value: unknown) => `$${params.push(value)}`;
    if (since !== null) where.push(`at > ${bind(since)}`);
    if (until !== null) where.push(`at <= ${bind(until)}`);
    if (after !== null) where.push(`(at, seq) > (${bind(after.at)}, ${bind(after.seq)})`);
    const rows = await this.db.query<LogRow>(
      `SELECT seq, at, level, service, message FROM app_logs
       ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY at, seq LIMIT ${bind(limit)}`,
      params,
    );
    return rows.map(toEntry);
  }
}

function toEntry(row: LogRow): LogEntry {
  return {
    seq: Number(row.seq),
    at: new Date(Number(row.at)),
    level: row.level,
    message: `${row.service} ${row.message}`,
  };
}
