import {
  Budget,
  CLOCK,
  Ephemeral,
  Inject,
  type ManualClock,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Project,
  type StableKeyValue,
  Tool,
  type ToolContext,
  toolError,
} from "frugal-mcp";
import { z } from "zod";
import { formatLine, type Issue, type LogLine } from "../data.js";
import { IssueStore, LogStore, newestFirst } from "../stores.js";

const ISSUE_FIELDS = [
  "id",
  "title",
  "state",
  "labels",
  "author",
  "createdAt",
  "updatedAt",
  "comments",
  "body",
] as const;
/** What a list item can hold: everything but the body, which is read one issue at a time. */
const LIST_FIELDS = ISSUE_FIELDS.filter((field) => field !== "body");
const filters = {
  state: z.enum(["open", "closed"]).optional().describe("open or closed"),
  label: z.string().min(1).max(50).optional().describe("one label, e.g. bug"),
};

/**
 * Contender 3: the same data served with frugal-mcp, written as a user would with today's
 * public API: a projected lookup that spills when it is large, a keyset-paged list with
 * fields, totals and adaptive pages under a token budget, and a stored export read with
 * the built-in read_resource and search_resource.
 */
@McpService()
export class IssuesService {
  constructor(@Inject(IssueStore) private readonly issues: IssueStore) {}

  @Tool({
    description:
      "One issue by id; `fields` picks what to return (default: id, title, state, labels, updatedAt). A large result comes back as a link to read in slices or search within.",
    input: { id: z.number().int().min(1).describe("issue id") },
    annotations: { readOnlyHint: true },
  })
  @Project(ISSUE_FIELDS, { defaultFields: ["id", "title", "state", "labels", "updatedAt"] })
  @Ephemeral({ ttl: 3_600_000, mimeType: "application/json", description: "one issue" })
  getIssue({ id }: { id: number }) {
    return this.issues.get(id) ?? toolError(`No issue ${id}. Call list_issues to see the ids.`);
  }

  @Tool({
    description:
      "Issues, most recently updated first, a page at a time, with their total. Filter by state and label; `fields` to choose columns.",
    input: filters,
    annotations: { readOnlyHint: true },
  })
  @Paginated(["updatedAt", "id"], {
    limit: 20,
    maxLimit: 100,
    order: "desc",
    adaptive: true,
    fields: LIST_FIELDS,
    defaultFields: ["id", "title", "state", "updatedAt"],
  })
  @Budget(2_000)
  listIssues({ state, label }: { state?: string; label?: string }, ctx: ToolContext) {
    const page = ctx.page;
    if (!page) throw new Error("list_issues runs under @Paginated, so ctx.page is always set");
    const all = this.issues.newest(state, label);
    const from = page.after === null ? 0 : firstAfter(all, page.after);
    return { items: all.slice(from, from + page.limit + 1), total: all.length };
  }

  @Tool({
    description:
      "Every issue matching the filters, whole, by id: stored as a JSON array to read in slices (read_resource) or search (search_resource).",
    input: filters,
    annotations: { readOnlyHint: true },
  })
  @Ephemeral({ when: "always", ttl: 3_600_000, mimeType: "application/json", description: "issues by id" })
  exportIssues({ state, label }: { state?: string; label?: string }) {
    return this.issues.byId(state, label);
  }
}

@McpService()
export class LogsService {
  constructor(@Inject(LogStore) private readonly logs: LogStore) {}

  @Tool({
    description:
      'Find log lines containing some text (case-sensitive), oldest first. Lines look like "2026-06-27T10:00:00.000Z ERROR billing req=… payment 123 declined: card expired". A large result comes back as a link to read in slices or search within.',
    input: { query: z.string().min(1).max(200).describe('text to find, e.g. "ERROR" or "req=0a1b2c3d"') },
    annotations: { readOnlyHint: true },
  })
  @Ephemeral({ ttl: 3_600_000, mimeType: "text/plain", description: "matching log lines, oldest first" })
  searchLogs({ query }: { query: string }) {
    const lines = this.logs.search(query, formatLine).map(formatLine);
    return lines.length > 0 ? lines.join("\n") : `No log line contains "${query}".`;
  }

  @Tool({
    description:
      "Log lines by time, in chunks of at most five minutes (default: the latest five). Follow nextCursor while hasMore; then pass since = nextSince to get what came after.",
    annotations: { readOnlyHint: true },
  })
  @Paginated(["at", "seq"], {
    limit: 50,
    maxLimit: 200,
    adaptive: true,
    stream: { window: 5 * 60_000 },
    // The model reads each item as the log line it is (structuredContent keeps the objects).
    line: (item: { seq: number; at: Date; level: string; service: string; message: string }) =>
      formatLine({ ...item, at: item.at.getTime() } as LogLine),
  })
  @Budget(4_000)
  tailLogs(_input: unknown, ctx: ToolContext) {
    const page = ctx.page;
    if (!page) throw new Error("tail_logs runs under @Paginated, so ctx.page is always set");
    const lines = this.logs.range(epochMs(page.since), epochMs(page.until));
    const after = page.after;
    const from = after === null ? 0 : lines.findIndex((line) => isAfter(line, after));
    return (from < 0 ? [] : lines.slice(from, from + page.limit + 1)).map((line) => ({
      seq: line.seq,
      at: new Date(line.at),
      level: line.level,
      service: line.service,
      message: line.message,
    }));
  }
}

@McpModule({ services: [IssuesService, LogsService] })
export class ContextBenchModule {}

/** Index of the first issue after the keyset position `after` in a newest-first view. */
function firstAfter(view: readonly Issue[], after: Readonly<Record<string, StableKeyValue>>): number {
  const probe = { updatedAt: toIso(after.updatedAt), id: Number(after.id) } as Issue;
  let low = 0;
  let high = view.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (newestFirst(view[mid] as Issue, probe) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

function toIso(value: StableKeyValue | undefined): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

function epochMs(bound: number | Date | null | undefined): number | null {
  if (bound === null || bound === undefined) return null;
  return bound instanceof Date ? bound.getTime() : bound;
}

function isAfter(
  line: { at: number; seq: number },
  after: Readonly<Record<string, StableKeyValue>>,
): boolean {
  const at = after.at instanceof Date ? after.at.getTime() : Number(after.at);
  return line.at > at || (line.at === at && line.seq > Number(after.seq));
}

/** A frugal-mcp app over this run's stores, on a manual clock (so cursors and expiries are the same every run). */
export function frugalApp(issues: IssueStore, logs: LogStore, clock: ManualClock): Promise<McpApp> {
  return McpFactory.create(ContextBenchModule, {
    name: "frugal",
    version: "1.0.0",
    cursorSecret: "context-bench-cursor-secret-0123456789",
    // The leanest text frugal-mcp writes: tables, and flat objects as key=value lines (opt-in).
    text: "compact",
    providers: [
      { provide: IssueStore, useValue: issues },
      { provide: LogStore, useValue: logs },
      { provide: CLOCK, useValue: clock },
    ],
  });
}
