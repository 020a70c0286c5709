/** The framework's own diagnostics sink (not the MCP logging sent to clients). */
export interface Logger {
  /** Detail for tracing the framework's decisions (cache hits and drops, refused requests). */
  debug(message: string, details?: unknown): void;
  /** What an operator wants to see in normal running (the server listening, a change of state). */
  info(message: string, details?: unknown): void;
  /** Something degraded but still served (a fallback, a dropped event). */
  warn(message: string, details?: unknown): void;
  /** A failure; `details` is usually the `Error`. */
  error(message: string, details?: unknown): void;
}

const LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
type Level = (typeof LEVELS)[number];

/**
 * Writes to stderr, because stdout belongs to the stdio transport. The level comes from
 * `FRUGAL_LOG_LEVEL` (`debug`, `info`, `warn`, `error`, `silent`; default `info`).
 *
 * @example
 * ```ts
 * new StderrLogger("warn").warn("cursors will not survive a restart");
 * ```
 */
export class StderrLogger implements Logger {
  private readonly threshold: number;

  constructor(level: Level = (process.env.FRUGAL_LOG_LEVEL as Level | undefined) ?? "info") {
    this.threshold = Math.max(0, LEVELS.indexOf(level));
  }

  debug(message: string, details?: unknown): void {
    this.write("debug", message, details);
  }
  info(message: string, details?: unknown): void {
    this.write("info", message, details);
  }
  warn(message: string, details?: unknown): void {
    this.write("warn", message, details);
  }
  error(message: string, details?: unknown): void {
    this.write("error", message, details);
  }

  private write(level: Level, message: string, details: unknown): void {
    if (LEVELS.indexOf(level) < this.threshold) return;
    const suffix = details === undefined ? "" : ` ${describe(details)}`;
    process.stderr.write(`[frugal-mcp] ${level}: ${message}${suffix}\n`);
  }
}

function describe(details: unknown): string {
  if (details instanceof Error) return details.stack ?? details.message;
  try {
    return JSON.stringify(details);
  } catch {
    return String(details);
  }
}
