/** One log line. */
export interface LogEntry {
  seq: number;
  at: Date;
  level: string;
  message: string;
}

/** The key a tail walk goes on from: the last line already returned. */
export interface LogKey {
  at: number;
  seq: number;
}

/**
 * Where log lines come from. The base service (`LogSearchService`) needs only this, so one
 * set of tools serves any store: the app's database table, a file, a log service.
 */
export interface LogSource {
  /** Lines containing `text` (case-sensitive), oldest first, at most `max`. */
  search(text: string, max: number): Promise<LogEntry[]>;
  /**
   * Lines with `since < at <= until` (either bound may be null) that sort after `after`
   * by `(at, seq)`, in that order, at most `limit`.
   */
  window(
    since: number | null,
    until: number | null,
    after: LogKey | null,
    limit: number,
  ): Promise<LogEntry[]>;
}

/** `2026-03-01T10:00:00.000Z WARN api req=… slow request …`: one line of text per entry. */
export function formatLine(entry: LogEntry): string {
  return `${entry.at.toISOString()} ${entry.level} ${entry.message}`;
}
