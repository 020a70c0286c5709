import { Ephemeral, Paginated, type StableKeyValue, Tool, type ToolContext } from "frugal-mcp";
import { z } from "zod";
import { formatLine, type LogKey, type LogSource } from "./log-source.js";

/** Most lines one search returns; past it the result says it was cut. */
export const MAX_MATCHES = 100_000;
/** One tail chunk covers at most five minutes of log. */
export const TAIL_WINDOW_MS = 5 * 60_000;

/**
 * Log tools over any `LogSource`, written once and subclassed per source (each subclass
 * injects its source and gives its tools a prefix with `@McpService({ toolPrefix })`):
 *
 * - `search_logs({ query })`: every matching line, oldest first. A large result is stored
 *   as an ephemeral resource (`@Ephemeral`) and the model gets a link and a summary, then
 *   reads it in slices with `read_resource` or searches it with `search_resource`.
 * - `tail_logs({ since?, until?, cursor?, limit? })`: the log in chunks of at most five
 *   minutes; follow `nextCursor` while `hasMore`, then call again with `since: nextSince`
 *   to see what came next, each line exactly once.
 */
export abstract class LogSearchService {
  protected abstract readonly source: LogSource;

  @Tool({
    description:
      'Find log lines containing some text (case-sensitive), oldest first. Lines look like "2026-03-01T10:00:00.000Z ERROR billing req=… payment 123 declined". A large result comes back as a link to read in slices or search within.',
    input: { query: z.string().min(1).max(200).describe('text to find, e.g. "ERROR" or "req=0a1b2c3d"') },
    annotations: { readOnlyHint: true },
  })
  // Kept for an hour: long enough to read through, short enough not to pile up.
  @Ephemeral({ ttl: 3_600_000, mimeType: "text/plain", description: "matching log lines, oldest first" })
  async searchLogs({ query }: { query: string }) {
    const matches = await this.source.search(query, MAX_MATCHES + 1);
    if (matches.length === 0) return `No log line contains "${query}".`;
    const lines = matches.slice(0, MAX_MATCHES).map(formatLine);
    if (matches.length > MAX_MATCHES) lines.push(`[cut after ${MAX_MATCHES} lines; narrow the query]`);
    return lines.join("\n");
  }

  @Tool({
    description:
      "Log lines by time, in chunks of at most five minutes (default: the latest five). Follow nextCursor while hasMore; then pass since = nextSince to get what came after.",
    annotations: { readOnlyHint: true },
  })
  @Paginated(["at", "seq"], { limit: 50, maxLimit: 200, stream: { window: TAIL_WINDOW_MS } })
  async tailLogs(_input: unknown, ctx: ToolContext) {
    const page = ctx.page;
    if (!page) throw new Error("tail_logs runs under @Paginated, so ctx.page is always set");
    const rows = await this.source.window(
      epochMs(page.since),
      epochMs(page.until),
      logKey(page.after),
      page.limit + 1,
    );
    return rows.map((e) => ({ seq: e.seq, at: e.at, level: e.level, message: e.message }));
  }
}

function epochMs(bound: number | Date | null | undefined): number | null {
  if (bound === null || bound === undefined) return null;
  return bound instanceof Date ? bound.getTime() : bound;
}

function logKey(after: Readonly<Record<string, StableKeyValue>> | null): LogKey | null {
  if (after === null) return null;
  const { at, seq } = after;
  const ms = at instanceof Date ? at.getTime() : typeof at === "number" ? at : Number.NaN;
  if (Number.isNaN(ms) || typeof seq !== "number") {
    throw new Error("the cursor does not hold an (at, seq) key; start again without `cursor`");
  }
  return { at: ms, seq };
}
