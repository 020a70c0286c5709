import { Injectable } from "frugal-mcp";

/** Lines in the corpus. */
export const LOG_LINE_COUNT = 1_000_000;
/** Most lines one search returns; past it the result says it was cut and how to narrow it. */
export const MAX_MATCHES = 200_000;

/** Time of line 0; the lines then span about a day, one every ~86 ms. */
const START_MS = Date.UTC(2026, 2, 1);
const STEP_MS = 86;

export const SERVICES = ["api", "auth", "billing", "search", "worker", "gateway"] as const;
const ROUTES = ["/v1/orders", "/v1/users", "/v1/invoices", "/v1/search", "/v1/carts"] as const;

/** One parsed line. */
export interface LogLine {
  seq: number;
  at: string;
  level: "DEBUG" | "INFO" | "WARN" | "ERROR";
  service: (typeof SERVICES)[number];
  message: string;
}

/** A 32-bit integer hash of `n` (splitmix-style): the same line for the same number, every run. */
function mix(n: number): number {
  let h = (n + 0x9e3779b9) | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A deterministic corpus of a million log lines (timestamp, level, service, message),
 * each computed from its sequence number when asked for: nothing is generated at startup
 * and nothing is held in memory, yet every run (and every instance) sees the same logs.
 * In a real server this is the log store (Loki, Elasticsearch, files…).
 */
@Injectable()
export class LogCorpus {
  readonly size = LOG_LINE_COUNT;
  // Formatting a Date per line is most of a scan's cost; neighbouring lines share their second.
  private second = Number.NaN;
  private secondText = "";

  /** Line `seq` (0 is the oldest), parsed. */
  entry(seq: number): LogLine {
    const h = mix(seq);
    const roll = h % 100;
    const level = roll < 2 ? "ERROR" : roll < 10 ? "WARN" : roll < 80 ? "INFO" : "DEBUG";
    const service = SERVICES[(h >>> 8) % SERVICES.length] as LogLine["service"];
    const at = this.timestamp(START_MS + seq * STEP_MS + ((h >>> 4) % 50));
    return { seq, at, level, service, message: message(level, service, h, seq) };
  }

  /** Line `seq` as text: `2026-03-01T00:00:00.012Z INFO api req=… GET /v1/orders/… 200 in 12ms`. */
  line(seq: number): string {
    const { at, level, service, message } = this.entry(seq);
    return `${at} ${level} ${service} ${message}`;
  }

  /**
   * Every line containing `query` (case-sensitive), oldest first, joined by "\n"; after
   * `MAX_MATCHES` lines, a last line says the result was cut. Scans the million lines
   * (a few hundred ms); a real log store answers from its own index.
   */
  search(query: string): { text: string; matches: number; truncated: boolean } {
    const lines: string[] = [];
    for (let seq = 0; seq < this.size; seq++) {
      const line = this.line(seq);
      if (!line.includes(query)) continue;
      if (lines.length === MAX_MATCHES) {
        lines.push(`[cut after ${MAX_MATCHES} matching lines; narrow the query to see the rest]`);
        return { text: lines.join("\n"), matches: MAX_MATCHES, truncated: true };
      }
      lines.push(line);
    }
    return { text: lines.join("\n"), matches: lines.length, truncated: false };
  }

  /** `ms` as ISO 8601 (`2026-03-01T00:00:00.040Z`). */
  private timestamp(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      this.second = second;
      this.secondText = new Date(second * 1000).toISOString().slice(0, 19);
    }
    return `${this.secondText}.${String(ms - second * 1000).padStart(3, "0")}Z`;
  }

  /** The first line logged after `ms` (epoch milliseconds), in O(1): lines are evenly spaced. */
  firstAfter(ms: number): number {
    return Math.min(this.size, Math.max(0, Math.floor((ms - START_MS) / STEP_MS)));
  }

  /** The time of the last line, so a client can ask for "the last five minutes" of this corpus. */
  get lastAt(): string {
    return this.entry(this.size - 1).at;
  }

  /** Up to `count` lines before `before` (exclusive), newest first. */
  newest(before: number, count: number): Array<{ seq: number; line: string }> {
    const rows: Array<{ seq: number; line: string }> = [];
    for (let seq = Math.min(before, this.size) - 1; seq >= 0 && rows.length < count; seq--) {
      rows.push({ seq, line: this.line(seq) });
    }
    return rows;
  }
}

function message(level: LogLine["level"], service: LogLine["service"], h: number, seq: number): string {
  const req = `req=${((h ^ Math.imul(seq, 0x27d4eb2d)) >>> 0).toString(16).padStart(8, "0")}`;
  const n = (h >>> 12) % 100_000;
  const ms = (h >>> 3) % 3000;
  const route = ROUTES[(h >>> 20) % ROUTES.length];
  switch (level) {
    case "ERROR":
      return service === "billing"
        ? `${req} payment ${n} declined: card expired`
        : `${req} upstream timeout after ${ms}ms calling ${SERVICES[(h >>> 16) % SERVICES.length]}`;
    case "WARN":
      return (h >>> 24) % 2 === 0
        ? `${req} slow request ${route}/${n} took ${ms}ms`
        : `${req} retrying job ${n} (attempt ${2 + ((h >>> 26) % 3)})`;
    case "INFO":
      return service === "auth"
        ? `${req} user ${n} logged in`
        : `${req} GET ${route}/${n} 200 in ${ms % 200}ms`;
    default:
      return `${req} cache ${(h >>> 24) % 3 === 0 ? "miss" : "hit"} for key ${service}:${n}`;
  }
}
