import { Ephemeral, McpService, Paginated, Resource, Tool, type ToolContext } from "frugal-mcp";
import { z } from "zod";
import { LogCorpus, MAX_MATCHES } from "./log-corpus.js";

/**
 * Log search whose answers can be megabytes long without ever reaching the model whole:
 * `search_logs` stores its result as an ephemeral resource and answers with a link and a
 * short summary; the model then reads slices (`read_resource`) or searches inside the
 * result (`search_resource`), each held to the token budget.
 */
@McpService()
export class LogsService {
  constructor(private readonly corpus: LogCorpus) {}

  @Tool({
    description: `Find log lines containing some text (case-sensitive), oldest first, at most ${MAX_MATCHES}. Lines look like "2026-03-01T00:00:00.012Z ERROR billing req=… payment 123 declined: card expired". A large result comes back as a link to read in slices or search within.`,
    input: {
      query: z.string().min(1).max(200).describe('text to find, e.g. "ERROR billing" or "req=0a1b2c3d"'),
    },
    annotations: { readOnlyHint: true },
  })
  // Kept for an hour: long enough to page through, short enough not to pile up.
  @Ephemeral({ ttl: 3_600_000, mimeType: "text/plain", description: "matching log lines, oldest first" })
  searchLogs({ query }: { query: string }) {
    const { text, matches } = this.corpus.search(query);
    return matches === 0 ? `No log line contains "${query}".` : text;
  }

  @Tool({
    description: "The most recent log lines, newest first, a page at a time.",
    annotations: { readOnlyHint: true },
  })
  // The model reads the log lines themselves, one per line (structuredContent keeps { seq, line }).
  @Paginated("seq", { limit: 20, maxLimit: 100, order: "desc", line: (row: { line: string }) => row.line })
  tail(_input: unknown, ctx: ToolContext) {
    const page = ctx.page;
    if (!page) throw new Error("tail runs under @Paginated, so ctx.page is always set");
    const after = page.after?.seq;
    // Reading ctx.page makes the framework trust this order and only cut the extra row off.
    return this.corpus.newest(typeof after === "number" ? after : this.corpus.size, page.limit + 1);
  }

  /**
   * The log as a stream in time-bounded chunks: `logs://stream?since=2026-03-01T10:00:00Z`
   * walks the five minutes after `since`, at most `limit` lines a chunk, each chunk saying
   * which range it covers (`since`, `until`, `first`, `last`) and where the next window
   * starts (`nextSince`). The generator seeks to `since`, so a chunk costs its own lines only.
   */
  @Resource("logs://stream", {
    description: "Log lines by time, in chunks of at most five minutes; query: since, until, limit, cursor",
    mimeType: "application/json",
  })
  @Paginated(["at", "seq"], { limit: 100, maxLimit: 500, stream: { window: 5 * 60_000 } })
  async *stream(_input: unknown, ctx: ToolContext) {
    const since = ctx.page?.since;
    const after = ctx.page?.after?.seq;
    const from =
      typeof after === "number" ? after + 1 : since ? this.corpus.firstAfter(new Date(since).getTime()) : 0;
    for (let seq = from; seq < this.corpus.size; seq++) yield this.corpus.entry(seq);
  }
}
