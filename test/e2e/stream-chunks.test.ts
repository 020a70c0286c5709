import {
  CLOCK,
  createTestClient,
  ManualClock,
  McpModule,
  McpService,
  Paginated,
  Resource,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const START = Date.UTC(2026, 10, 1, 12, 0, 0);
const MINUTE = 60_000;
// One event every 20 seconds for an hour, plus a burst of three at 12:30:00.
const EVENTS = [
  ...Array.from({ length: 180 }, (_, i) => ({ at: new Date(START + i * 20_000), id: i, line: `event ${i}` })),
  ...[1000, 1001, 1002].map((id) => ({ at: new Date(START + 30 * MINUTE), id, line: `burst ${id}` })),
].sort((a, b) => a.at.getTime() - b.at.getTime() || a.id - b.id);
const clock = new ManualClock(START + 60 * MINUTE);
let lastPage: unknown;

@McpService()
class LogsService {
  @Tool()
  @Paginated(["at", "id"], { limit: 10, stream: { window: 5 * MINUTE } })
  async *tail(_input: unknown, ctx: ToolContext) {
    lastPage = ctx.page;
    for (const event of EVENTS) yield event;
  }

  @Tool()
  @Paginated("seq", { limit: 4, stream: {} })
  feed() {
    return Array.from({ length: 20 }, (_, i) => ({ seq: i + 1, kind: i % 2 ? "odd" : "even" }));
  }

  @Tool()
  @Paginated("seq", { limit: 100, stream: { maxBytes: 200 } })
  metrics() {
    return Array.from({ length: 30 }, (_, i) => ({ seq: i, value: i * 1.5, host: `host-${i}` }));
  }

  @Resource("logs://app")
  @Paginated(["at", "id"], { limit: 50, stream: { window: 10 * MINUTE } })
  logs() {
    return EVENTS;
  }
}

@McpModule({ services: [LogsService] })
class LogsModule {}

type Chunk = {
  items: Array<Record<string, unknown>>;
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
  since: unknown;
  until: unknown;
  first: unknown;
  last: unknown;
  nextSince?: unknown;
};

describe("stream chunks", () => {
  let t: TestClient;
  const chunk = async (name: string, args: Record<string, unknown>) => {
    const result = await t.client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as Chunk;
  };
  beforeAll(async () => {
    t = await createTestClient(LogsModule, { providers: [{ provide: CLOCK, useValue: clock }] });
  });
  afterAll(() => t.close());

  it("walks a time window after since, chunk by chunk, and says where the next window starts", async () => {
    const since = new Date(START + 10 * MINUTE).toISOString();
    const first = await chunk("tail", { since });
    expect(first).toMatchObject({
      since,
      until: new Date(START + 15 * MINUTE).toISOString(),
      count: 10,
      hasMore: true,
      first: new Date(START + 10 * MINUTE + 20_000).toISOString(),
    });
    expect((lastPage as { since: Date }).since).toBeInstanceOf(Date);
    const second = await chunk("tail", { since, cursor: first.nextCursor });
    expect(second.count).toBe(5);
    expect(second.hasMore).toBe(false);
    expect(second.nextCursor).toBeNull();
    expect(second.nextSince).toBe(new Date(START + 15 * MINUTE).toISOString());
    expect(second.last).toBe(new Date(START + 15 * MINUTE).toISOString());
    // Every event in (since, since + 5 min] was returned exactly once.
    const ids = [...first.items, ...second.items].map((e) => e.id);
    expect(ids).toEqual(Array.from({ length: 15 }, (_, i) => 31 + i));
  });

  it("defaults to the latest window, and shortens a range longer than the window", async () => {
    const latest = await chunk("tail", { limit: 100 });
    expect(latest.until).toBe(new Date(START + 60 * MINUTE).toISOString());
    expect(latest.since).toBe(new Date(START + 55 * MINUTE).toISOString());
    expect(latest.count).toBe(14);
    const long = await chunk("tail", { since: START, until: START + 60 * MINUTE, limit: 100 });
    expect(long.until).toBe(START + 5 * MINUTE);
    expect(long.count).toBe(15);
  });

  it("keeps every event of a burst with the same timestamp", async () => {
    const since = START + 29 * MINUTE;
    const walked: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: Chunk = await chunk("tail", cursor ? { since, cursor, limit: 2 } : { since, limit: 2 });
      walked.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(walked).toEqual([88, 89, 90, 1000, 1001, 1002, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100, 101, 102]);
  });

  it("refuses a malformed or inverted range", async () => {
    const bad = await t.client.callTool({ name: "tail", arguments: { since: "yesterday-ish" } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("since must be an ISO 8601 time");
    const inverted = await t.client.callTool({
      name: "tail",
      arguments: { since: START + 10, until: START },
    });
    expect(JSON.stringify(inverted.content)).toContain("until must be later than since");
  });

  it("gives count-bounded chunks after a sequence number", async () => {
    const first = await chunk("feed", { since: 10 });
    expect(first.items.map((e) => e.seq)).toEqual([11, 12, 13, 14]);
    expect(first).toMatchObject({ since: 10, until: null, first: 11, last: 14, hasMore: true });
    const next = await chunk("feed", { since: 10, cursor: first.nextCursor, limit: 10 });
    expect(next.items.map((e) => e.seq)).toEqual([15, 16, 17, 18, 19, 20]);
    expect(next.hasMore).toBe(false);
  });

  it("gives size-bounded chunks that never exceed maxBytes and lose nothing", async () => {
    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: Chunk = await chunk("metrics", cursor ? { cursor } : {});
      expect(Buffer.byteLength(JSON.stringify(page.items))).toBeLessThanOrEqual(200);
      seen.push(...page.items.map((e) => e.seq));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("reads a stream resource with since and cursor query variables in any order", async () => {
    const { resourceTemplates } = await t.client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain("logs://app{?cursor,limit,since,until}");
    const read = async (uri: string) =>
      JSON.parse(
        String(((await t.client.readResource({ uri })).contents[0] as { text: string }).text),
      ) as Chunk;
    const since = new Date(START).toISOString();
    const first = await read(`logs://app?limit=20&since=${encodeURIComponent(since)}`);
    expect(first.count).toBe(20);
    const rest = await read(`logs://app?cursor=${first.nextCursor}&since=${encodeURIComponent(since)}`);
    expect(rest.count).toBe(10);
    expect(rest.nextSince).toBe(new Date(START + 10 * MINUTE).toISOString());
  });
});
