import {
  CLOCK,
  createTestClient,
  FrugalConfigError,
  ManualClock,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  type PaginatedOptions,
  Resource,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

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

  it("defaults to the latest settled window, and shortens a range longer than the window", async () => {
    // The latest window ends a millisecond before now (the settle lag): 12:55:00 is in it.
    const latest = await chunk("tail", { limit: 100 });
    expect(latest.until).toBe(new Date(START + 60 * MINUTE - 1).toISOString());
    expect(latest.since).toBe(new Date(START + 55 * MINUTE - 1).toISOString());
    expect(latest.count).toBe(15);
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

// Tailing (issue 11): a time window never ends in the future, items outside it are always
// dropped, and a read of a live source gives up at the window's end plus `stream.graceMs`.

const T0 = Date.UTC(2026, 10, 2, 8, 0, 0);
const SECOND = 1_000;
const tailClock = new ManualClock(T0);
type Line = { at: Date; seq: number; text: string };
const lineAt = (ms: number, seq: number): Line => ({ at: new Date(ms), seq, text: `line ${seq}` });
const iso = (ms: number) => new Date(ms).toISOString();

/** The log the tailing client follows: the test appends one line per simulated second. */
const journal: Line[] = [];
/** A fixed history (one line a second for two minutes after T0), for the pushed-down query. */
const HISTORY = Array.from({ length: 120 }, (_, i) => lineAt(T0 + (i + 1) * SECOND, i + 1));

/**
 * A live log: `follow()` yields the lines it holds, then waits for the next one to be
 * appended, as `tail -f` or a change stream does.
 */
class LiveLog {
  readonly lines: Line[] = [];
  closed = 0;
  private wake: Array<() => void> = [];
  private waiters: Array<() => void> = [];

  append(line: Line): void {
    this.lines.push(line);
    for (const wake of this.wake.splice(0)) wake();
  }

  /** Resolves the next time a reader has read every line and starts waiting for more. */
  nextWait(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async *follow(): AsyncGenerator<Line> {
    let read = 0;
    try {
      for (;;) {
        while (read < this.lines.length) yield this.lines[read++] as Line;
        const more = new Promise<void>((resolve) => this.wake.push(resolve));
        for (const waiting of this.waiters.splice(0)) waiting();
        await more;
      }
    } finally {
      this.closed++;
    }
  }
}
const live = new LiveLog();

/**
 * An async iterator of its own (no generator): after its lines, `next()` waits until
 * `return()` is called, which rejects that pending `next()`, and `return()` itself rejects.
 */
function quietFeed(lines: Line[]) {
  const queue = [...lines];
  const state = { returnCalls: 0, returnedWhilePending: false };
  let rejectPending: ((error: Error) => void) | undefined;
  const iterator: AsyncIterableIterator<Line> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      const line = queue.shift();
      if (line) return Promise.resolve({ value: line, done: false });
      return new Promise((_, reject) => {
        rejectPending = reject;
      });
    },
    return() {
      state.returnCalls++;
      state.returnedWhilePending = rejectPending !== undefined;
      rejectPending?.(new Error("feed closed while a read was pending"));
      return Promise.reject(new Error("feed was already closing"));
    },
  };
  return { state, iterator };
}
let feed: ReturnType<typeof quietFeed> | undefined;

@McpService()
class TailService {
  /** An async generator over the journal as it is now (it ends: not a live source). */
  @Tool()
  @Paginated(["at", "seq"], { limit: 3, stream: { window: MINUTE } })
  async *journal() {
    for (const line of [...journal]) yield line;
  }

  /** The whole journal as an array, ordered and cut by the framework. */
  @Tool()
  @Paginated(["at", "seq"], { limit: 3, stream: { window: MINUTE } })
  journalArray() {
    return journal;
  }

  /** A query that pushes `since`, the cursor and the limit down, but forgot `at <= until`. */
  @Tool()
  @Paginated(["at", "seq"], { limit: 50, stream: { window: 10 * SECOND } })
  history(_input: unknown, ctx: ToolContext) {
    const page = ctx.page;
    if (!page?.since) throw new Error("a time window always has since");
    const since = new Date(page.since).getTime();
    const after = page.after?.seq;
    return HISTORY.filter(
      (line) => line.at.getTime() > since && (typeof after !== "number" || line.seq > after),
    ).slice(0, page.limit + 1);
  }

  @Tool()
  @Paginated(["at", "seq"], { limit: 50, stream: { window: SECOND, graceMs: 250 } })
  follow() {
    return live.follow();
  }

  /** Default grace (250 ms). */
  @Tool()
  @Paginated(["at", "seq"], { limit: 50, stream: { window: SECOND } })
  quiet() {
    const now = tailClock.now();
    feed = quietFeed([lineAt(now - 800, 1), lineAt(now - 300, 2)]);
    return feed.iterator;
  }
}

let slowReads = 0;

@McpService()
class NewestFirstService {
  /** Newest first; the first read stalls after two lines (a slow source), later reads do not. */
  @Tool()
  @Paginated(["at", "seq"], { limit: 50, order: "desc", stream: { window: 10 * SECOND, graceMs: 50 } })
  async *newest() {
    const stall = slowReads++ === 0;
    for (const line of [...HISTORY].reverse()) {
      if (stall && line.seq === 18) await new Promise(() => {});
      yield line;
    }
  }
}

@McpModule({ services: [TailService, NewestFirstService] })
class TailModule {}

/** Fails a call still unanswered after `ms` (a hung read would otherwise run into the test timeout). */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

describe("tailing a time-windowed stream", () => {
  let t: TestClient;
  const chunk = async (name: string, args: Record<string, unknown>) => {
    const result = await within(3_000, t.client.callTool({ name, arguments: args }));
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return result.structuredContent as Chunk;
  };
  beforeAll(async () => {
    t = await createTestClient(TailModule, { providers: [{ provide: CLOCK, useValue: tailClock }] });
  });
  afterAll(() => t.close());

  it.each(["journal", "journal_array"])(
    "%s: a client polling every 5 s with since = nextSince sees 120 of 120 lines, each once",
    async (tool) => {
      journal.length = 0;
      tailClock.set(T0);
      let since: unknown = iso(T0);
      const seen: number[] = [];
      for (let second = 1; second <= 120; second++) {
        // One line a second, stamped with the clock's now.
        tailClock.set(T0 + second * SECOND);
        journal.push(lineAt(tailClock.now(), second));
        if (second % 5 !== 0) continue;
        // A poll: the chunks of one window (3 lines each), then the next window from nextSince.
        let page = await chunk(tool, { since });
        seen.push(...page.items.map((line) => line.seq as number));
        while (page.nextCursor) {
          page = await chunk(tool, { since, cursor: page.nextCursor });
          seen.push(...page.items.map((line) => line.seq as number));
        }
        // The window ends where it is settled, a millisecond before now, not `since + window` in the future …
        expect(page.until).toBe(iso(tailClock.now() - 1));
        // … so the line stamped exactly now waits for the next poll (which, since is exclusive, has it once).
        expect(page.last).toBe(iso(tailClock.now() - SECOND));
        expect(page.nextSince).toBe(page.until);
        since = page.nextSince;
      }
      // A poll a second later has the line stamped at the last poll's now.
      tailClock.advance(SECOND);
      const last = await chunk(tool, { since });
      expect(last.items.map((line) => line.seq)).toEqual([120]);
      seen.push(...last.items.map((line) => line.seq as number));
      expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    },
  );

  it("drops rows past until from a handler that read ctx.page, and its envelope's last is honest", async () => {
    tailClock.set(T0 + 120 * SECOND);
    // The handler returns the limit + 1 = 51 lines after since (11 s … 61 s); the window is (10 s, 20 s].
    const page = await chunk("history", { since: iso(T0 + 10 * SECOND) });
    expect(page.items.map((line) => line.seq)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(page).toMatchObject({
      since: iso(T0 + 10 * SECOND),
      until: iso(T0 + 20 * SECOND),
      first: iso(T0 + 11 * SECOND),
      last: iso(T0 + 20 * SECOND),
      hasMore: false,
      nextCursor: null,
      nextSince: iso(T0 + 20 * SECOND),
    });
    // limit + 1 rows, only three inside (10 s, 13 s]: no phantom next page either.
    const short = await chunk("history", {
      since: iso(T0 + 10 * SECOND),
      until: iso(T0 + 13 * SECOND),
      limit: 5,
    });
    expect(short.items.map((line) => line.seq)).toEqual([11, 12, 13]);
    expect(short).toMatchObject({ last: iso(T0 + 13 * SECOND), hasMore: false, nextCursor: null });
    expect(short.nextSince).toBe(iso(T0 + 13 * SECOND));
  });

  it("answers a live source that goes quiet within window + graceMs, and a late line is not lost", async () => {
    const now = T0 + 10 * MINUTE;
    tailClock.set(now);
    for (const [ms, seq] of [
      [now - 5_000, 1], // before the 1 s window
      [now - 900, 2],
      [now - 500, 3],
    ] as const)
      live.append(lineAt(ms, seq));
    const waiting = live.nextWait();
    const started = performance.now();
    const call = chunk("follow", {});
    // The reader has read everything and waits: a line stamped inside the window arrives late.
    await waiting;
    live.append(lineAt(now - 100, 4));
    const first = await call;
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(240);
    expect(elapsed).toBeLessThan(1_500);
    expect(first.items.map((line) => line.seq)).toEqual([2, 3, 4]);
    expect(first).toMatchObject({
      since: iso(now - 1 - SECOND),
      until: iso(now - 1),
      last: iso(now - 100),
      hasMore: false,
      nextCursor: null,
    });
    // The read gave up where it really got to: the last line read.
    expect(first.nextSince).toBe(iso(now - 100));

    // The abandoned generator was asked to close: it does once its pending step settles,
    // here when a line stamped inside the answered window arrives after the answer.
    live.append(lineAt(now - 50, 5));
    await vi.waitFor(() => expect(live.closed).toBe(1));

    // Polling with since = nextSince sees that late line once, then the new ones.
    const second = await chunk("follow", { since: first.nextSince });
    expect(second.items.map((line) => line.seq)).toEqual([5]);
    expect(second.nextSince).toBe(iso(now - 50));
    tailClock.advance(SECOND / 2);
    live.append(lineAt(tailClock.now(), 6));
    tailClock.advance(1);
    const third = await chunk("follow", { since: second.nextSince });
    expect(third.items.map((line) => line.seq)).toEqual([6]);
    expect(third.until).toBe(iso(tailClock.now() - 1));
  });

  it("closes an iterator that is mid-next() with return(), leaving no unhandled rejection", async () => {
    const now = T0 + 20 * MINUTE;
    tailClock.set(now);
    const started = performance.now();
    const page = await chunk("quiet", {});
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(page.items.map((line) => line.seq)).toEqual([1, 2]);
    expect(page.nextSince).toBe(iso(now - 300));
    // return() was called while next() was pending; both then rejected, and nobody minded.
    expect(feed?.state).toEqual({ returnCalls: 1, returnedWhilePending: true });
  });
});

describe("a descending time window read that gives up", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(TailModule, { providers: [{ provide: CLOCK, useValue: tailClock }] });
  });
  afterAll(() => t.close());

  it("goes on from its last line through the cursor, not from nextSince", async () => {
    tailClock.set(T0 + 120 * SECOND);
    const args = { since: iso(T0 + 10 * SECOND) };
    const call = async (extra: Record<string, unknown> = {}) =>
      (await within(3_000, t.client.callTool({ name: "newest", arguments: { ...args, ...extra } })))
        .structuredContent as Chunk;
    const first = await call();
    expect(first.items.map((line) => line.seq)).toEqual([20, 19]);
    expect(first.hasMore).toBe(true);
    expect(first.nextSince).toBeUndefined();
    const rest = await call({ cursor: first.nextCursor });
    expect(rest.items.map((line) => line.seq)).toEqual([18, 17, 16, 15, 14, 13, 12, 11]);
    expect(rest).toMatchObject({ hasMore: false, nextSince: iso(T0 + 20 * SECOND) });
  });
});

describe("stream.graceMs and stream.settleMs, checked at start-up", () => {
  const startup = async (stream: PaginatedOptions["stream"]) => {
    @McpService()
    class Svc {
      @Tool()
      @Paginated("at", { stream })
      list() {
        return [];
      }
    }
    @McpModule({ services: [Svc] })
    class AppModule {}
    return McpFactory.create(AppModule, { name: "t", version: "1" });
  };
  const refusal = async (stream: unknown) => {
    const error = await startup(stream as PaginatedOptions["stream"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FrugalConfigError);
    return (error as Error).message;
  };

  it.each([
    [-1, "-1"],
    [1.5, "1.5"],
    [Number.NaN, "NaN"],
    ["250", '"250"'],
  ])("refuses graceMs %s", async (graceMs, shown) => {
    expect(await refusal({ window: 1_000, graceMs })).toBe(
      `Svc.list: @Paginated \`stream.graceMs\` must be a whole number of 0 or more, not ${shown}. Fix: e.g. stream: { graceMs: 250 }.`,
    );
  });

  it("refuses graceMs without a window, and accepts 0", async () => {
    expect(await refusal({ graceMs: 100 })).toBe(
      "Svc.list: @Paginated has `stream.graceMs` without `stream.window`: only a time window's read waits for a live source. Fix: add `window` (e.g. stream: { window: 60_000, graceMs }), or drop `graceMs`.",
    );
    const app = await startup({ window: 1_000, graceMs: 0 });
    await app.close();
  });

  it.each([
    [-1, "-1"],
    [0.5, "0.5"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    ["10", '"10"'],
  ])("refuses settleMs %s", async (settleMs, shown) => {
    expect(await refusal({ window: 1_000, settleMs })).toBe(
      `Svc.list: @Paginated \`stream.settleMs\` must be a whole number of 0 or more, not ${shown}. Fix: e.g. stream: { settleMs: 1_000 }.`,
    );
  });

  it("refuses settleMs without a window, and accepts 0", async () => {
    expect(await refusal({ settleMs: 5 })).toBe(
      "Svc.list: @Paginated has `stream.settleMs` without `stream.window`: only a time window ends behind the clock. Fix: add `window` (e.g. stream: { window: 60_000, settleMs }), or drop `settleMs`.",
    );
    const app = await startup({ window: 1_000, settleMs: 0 });
    await app.close();
  });
});

// Issue 23, defect 1: a busy writer (a line every 3 ms) appends lines stamped in the very
// millisecond a poll's window ends, after the handler took its snapshot. The window must end
// where that snapshot is known to be complete, so such a line is in the next poll, once.

const B0 = Date.UTC(2026, 10, 3, 9, 0, 0);
const busyClock = new ManualClock(B0);
/** What a busy writer appended so far, one line every 3 ms of the clock. */
const busyLog: Line[] = [];
/** Called by the handlers right after they took their snapshot: the writer's chance to race them. */
let afterSnapshot: (() => void) | undefined;
/** A writer whose lines become readable some milliseconds after they are stamped (a commit lag). */
const pendingLines: Array<{ readableAt: number; line: Line }> = [];
const settledLog: Line[] = [];

@McpService()
class BusyLogService {
  /** A snapshot of the log as an array: the framework orders and cuts it. */
  @Tool()
  @Paginated(["at", "seq"], { limit: 20, stream: { window: MINUTE } })
  busyArray() {
    const snapshot = [...busyLog];
    afterSnapshot?.();
    return snapshot;
  }

  /** A generator over a snapshot (a query's cursor): it ends, it is not a live source. */
  @Tool()
  @Paginated(["at", "seq"], { limit: 20, stream: { window: MINUTE } })
  async *busyQuery() {
    const snapshot = [...busyLog];
    afterSnapshot?.();
    yield* snapshot;
  }

  /** Lines readable only once their commit lag has passed; the window settles for that long. */
  @Tool()
  @Paginated(["at", "seq"], { limit: 20, stream: { window: MINUTE, settleMs: 10 } })
  committed() {
    const now = busyClock.now();
    while (pendingLines.length > 0 && (pendingLines[0] as { readableAt: number }).readableAt <= now) {
      settledLog.push((pendingLines.shift() as { line: Line }).line);
    }
    return [...settledLog];
  }
}

@McpModule({ services: [BusyLogService] })
class BusyLogModule {}

describe("tailing a log with a busy writer", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(BusyLogModule, { providers: [{ provide: CLOCK, useValue: busyClock }] });
  });
  afterAll(() => t.close());

  /** One poll: every chunk of the window after `since`; the lines read and where to go on. */
  const poll = async (name: string, since: unknown) => {
    const seqs: number[] = [];
    let page: Chunk | undefined;
    do {
      const args: Record<string, unknown> = page?.nextCursor ? { since, cursor: page.nextCursor } : { since };
      const result = await t.client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      page = result.structuredContent as Chunk;
      seqs.push(...page.items.map((line) => line.seq as number));
    } while (page.nextCursor);
    return { seqs, page };
  };

  it.each(["busy_array", "busy_query"])(
    "%s: a line every 3 ms, a poll every 5 ms racing the writer: every line exactly once",
    async (tool) => {
      busyLog.length = 0;
      let seq = 0;
      const write = () => busyLog.push(lineAt(busyClock.now(), ++seq));
      let since: unknown = iso(B0);
      const seen: number[] = [];
      const ends: unknown[][] = [];
      for (let ms = 1; ms <= 600; ms++) {
        busyClock.set(B0 + ms);
        const writes = ms % 3 === 0;
        if (ms % 5 !== 0) {
          if (writes) write();
          continue;
        }
        // The poll's millisecond: the writer appends its line after the handler's snapshot.
        afterSnapshot = writes ? write : undefined;
        const { seqs, page } = await poll(tool, since);
        afterSnapshot = undefined;
        seen.push(...seqs);
        ends.push([page.until, page.nextSince, iso(busyClock.now() - 1)]);
        since = page.nextSince;
      }
      // The writer stops; a last poll a moment later collects what is left.
      busyClock.advance(5);
      seen.push(...(await poll(tool, since)).seqs);
      expect(seq).toBe(200);
      expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      // The window never reaches into the millisecond the writer may still be writing in.
      for (const [until, nextSince, settled] of ends) expect([until, nextSince]).toEqual([settled, settled]);
    },
  );

  it("a poll again within the same millisecond answers nothing and keeps nextSince", async () => {
    busyLog.length = 0;
    busyClock.set(B0 + 10 * MINUTE);
    busyLog.push(lineAt(busyClock.now() - 1, 1), lineAt(busyClock.now(), 2));
    const first = await poll("busy_array", iso(busyClock.now() - 5));
    expect(first.seqs).toEqual([1]);
    expect(first.page.nextSince).toBe(iso(busyClock.now() - 1));
    const again = await poll("busy_array", first.page.nextSince);
    expect(again.seqs).toEqual([]);
    expect(again.page).toMatchObject({ since: first.page.nextSince, until: first.page.nextSince });
    expect(again.page.nextSince).toBe(first.page.nextSince);
    busyClock.advance(1);
    expect((await poll("busy_array", again.page.nextSince)).seqs).toEqual([2]);
  });

  it("caps an explicit until at the settled end, and stream.settleMs covers a commit lag", async () => {
    busyLog.length = 0;
    busyClock.set(B0 + 20 * MINUTE);
    const capped = await poll("busy_array", iso(busyClock.now() - 1_000));
    expect(capped.page.until).toBe(iso(busyClock.now() - 1));
    const explicit = await t.client.callTool({
      name: "busy_array",
      arguments: { since: iso(busyClock.now() - 1_000), until: iso(busyClock.now() + 5_000) },
    });
    expect((explicit.structuredContent as Chunk).until).toBe(iso(busyClock.now() - 1));

    // A line every 3 ms, each readable 8 ms after its stamp; polls every 5 ms, settling 10 ms.
    pendingLines.length = 0;
    settledLog.length = 0;
    const start = B0 + 30 * MINUTE;
    let seq = 0;
    let since: unknown = iso(start);
    const seen: number[] = [];
    for (let ms = 1; ms <= 300; ms++) {
      busyClock.set(start + ms);
      if (ms % 3 === 0) pendingLines.push({ readableAt: start + ms + 8, line: lineAt(start + ms, ++seq) });
      if (ms % 5 !== 0) continue;
      const { seqs, page } = await poll("committed", since);
      // Ten milliseconds behind the clock (an empty range at `since` until the clock is that far on).
      expect(page.until).toBe(iso(Math.max(start, busyClock.now() - 10)));
      seen.push(...seqs);
      since = page.nextSince;
    }
    busyClock.advance(20);
    seen.push(...(await poll("committed", since)).seqs);
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });
});
