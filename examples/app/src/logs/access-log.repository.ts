import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { CLOCK, type Clock, Inject, Injectable } from "frugal-mcp";
import { APP_CONFIG, type AppConfig } from "../config/app-config.js";
import { DataDirectory } from "../config/data-directory.js";
import { generateAccessLog } from "../database/seed-data.js";
import type { LogEntry, LogKey, LogSource } from "./log-source.js";

/**
 * A reverse proxy's access log: a JSON Lines file (`access.log` in the data directory,
 * generated when missing), read once into memory, sorted by time. The second data source
 * behind the same log tools.
 */
@Injectable()
export class AccessLogRepository implements LogSource {
  private entries: LogEntry[] | undefined;

  constructor(
    private readonly dir: DataDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async search(text: string, max: number): Promise<LogEntry[]> {
    const out: LogEntry[] = [];
    for (const entry of this.load()) {
      if (`${entry.level} ${entry.message}`.includes(text)) out.push(entry);
      if (out.length === max) break;
    }
    return out;
  }

  async window(
    since: number | null,
    until: number | null,
    after: LogKey | null,
    limit: number,
  ): Promise<LogEntry[]> {
    const out: LogEntry[] = [];
    for (const entry of this.load()) {
      const at = entry.at.getTime();
      if (since !== null && at <= since) continue;
      if (until !== null && at > until) break;
      if (after !== null && (at < after.at || (at === after.at && entry.seq <= after.seq))) continue;
      out.push(entry);
      if (out.length === limit) break;
    }
    return out;
  }

  private load(): LogEntry[] {
    if (this.entries) return this.entries;
    const path = this.dir.file("access.log");
    if (!existsSync(path))
      writeFileSync(path, generateAccessLog(this.config.seed.accessLogLines, this.clock.now()));
    this.entries = readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line, seq) => {
        const { at, level, message } = JSON.parse(line) as { at: string; level: string; message: string };
        return { seq, at: new Date(at), level, message };
      })
      .sort((a, b) => a.at.getTime() - b.at.getTime() || a.seq - b.seq);
    return this.entries;
  }
}
