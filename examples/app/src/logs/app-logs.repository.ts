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
    // instr/strpos differ between dialects; LIKE with escaped wildcards is the same in both,
    // and a case-sensitive check after it keeps SQLite's case-insensitive LIKE honest.
    const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await this.db.query<LogRow>(
      `SELECT seq, at, level, service, message FROM app_logs
       WHERE (level || ' ' || service || ' ' || message) LIKE ? ESCAPE '\\' ORDER BY at, seq`,
      [pattern],
    );
    return rows
      .map(toEntry)
      .filter((e) => `${e.level} ${e.message}`.includes(text))
      .slice(0, max);
  }

  async window(
    since: number | null,
    until: number | null,
    after: LogKey | null,
    limit: number,
  ): Promise<LogEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (condition: string, ...values: unknown[]) => {
      where.push(condition);
      params.push(...values);
    };
    if (since !== null) add("at > ?", since);
    if (until !== null) add("at <= ?", until);
    if (after !== null) add("(at, seq) > (?, ?)", after.at, after.seq);
    const rows = await this.db.query<LogRow>(
      `SELECT seq, at, level, service, message FROM app_logs
       ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY at, seq LIMIT ?`,
      [...params, limit],
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
