import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  BpeTokenCounter,
  Budget,
  Cached,
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

/**
 * Adaptive pages (`@Paginated(key, { adaptive: true })`), end to end through the SDK
 * client: a walk that keeps going gets larger pages, one that stops early does not, the
 * budget still holds every page, and the page count the cursor carries cannot be forged.
 */

const SECRET = "adaptive-pages-test-secret-0123456789";
const START = Date.UTC(2026, 10, 1, 12, 0, 0);
const MINUTE = 60_000;
// One clock for both apps: cursors of the fixed and the adaptive app then match byte for byte.
const clock = new ManualClock(START + 60 * MINUTE);
const counter = new BpeTokenCounter();
const tokensOf = async (text: string) => (await counter.count(text, Number.MAX_SAFE_INTEGER)).tokens;

const ITEMS = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` }));
/** Items of about 28 tokens each: a budget of 1,500 holds some 50, fewer than grown pages ask for. */
const WORDY_BUDGET = 1500;
const WORDY = ITEMS.map(({ id }) => ({ id, text: `lorem ipsum dolor sit amet ${id} `.repeat(2) }));
/** One event a second for an hour, for a time-windowed stream. */
const EVENTS = Array.from({ length: 3600 }, (_, i) => ({ at: new Date(START + (i + 1) * 1000), id: i }));

/** Rows after `after` in key order, `limit + 1` of them: what a keyset query returns. */
function rowsAfter<T extends { id: number }>(rows: readonly T[], ctx: ToolContext): T[] {
  const page = ctx.page;
  if (!page) throw new Error("ctx.page is set under @Paginated");
  const after = page.after === null ? Number.NEGATIVE_INFINITY : Number(page.after.id);
  const start = rows.findIndex((row) => row.id > after);
  return start < 0 ? [] : rows.slice(start, start + page.limit + 1);
}

/** The `ctx.page.limit` each handler call saw, by tool. */
const seenLimits = new Map<string, number[]>();
const see = (name: string, ctx: ToolContext) => {
  seenLimits.set(name, [...(seenLimits.get(name) ?? []), ctx.page?.limit ?? -1]);
};
/** A table a walk reads while the test inserts rows into it, kept in key order. */
const growing: Array<{ id: number; name: string }> = [];

@McpService()
class AdaptiveService {
  @Tool({ description: "Items, adaptive pages" })
  @Paginated("id", { limit: 20, maxLimit: 100, adaptive: true })
  items(_input: unknown, ctx: ToolContext) {
    see("items", ctx);
    return rowsAfter(ITEMS, ctx);
  }

  @Tool()
  @Paginated("id", { limit: 20, maxLimit: 100, adaptive: true })
  @Budget(WORDY_BUDGET)
  wordy(_input: unknown, ctx: ToolContext) {
    see("wordy", ctx);
    return rowsAfter(WORDY, ctx);
  }

  @Tool()
  @Paginated("id", { limit: 20, maxLimit: 100, adaptive: true })
  @Cached({ ttl: 60_000 })
  cachedItems(_input: unknown, ctx: ToolContext) {
    see("cachedItems", ctx);
    return rowsAfter(ITEMS, ctx);
  }

  @Tool()
  @Paginated("id", { limit: 10, maxLimit: 100, adaptive: true })
  growing(_input: unknown, ctx: ToolContext) {
    return rowsAfter(growing, ctx);
  }

  @Tool()
  @Paginated("seq", { limit: 10, maxLimit: 80, adaptive: true, stream: {} })
  feed() {
    return Array.from({ length: 300 }, (_, i) => ({ seq: i + 1 }));
  }

  @Tool()
  @Paginated(["at", "id"], { limit: 10, maxLimit: 100, adaptive: true, stream: { window: 10 * MINUTE } })
  async *tail() {
    for (const event of EVENTS) yield event;
  }

  @Tool()
  @Paginated("seq", { limit: 5, maxLimit: 100, adaptive: true, stream: { maxBytes: 600 } })
  metrics() {
    return Array.from({ length: 200 }, (_, i) => ({ seq: i, host: `host-${String(i).padStart(3, "0")}` }));
  }

  @Resource("catalog://items", { mimeType: "application/json" })
  @Paginated("id", { limit: 20, maxLimit: 100, adaptive: true })
  catalog(_input: unknown, ctx: ToolContext) {
    return rowsAfter(ITEMS, ctx);
  }
}

/** The same `items` tool with fixed pages: what adaptive pages are measured against. */
@McpService()
class FixedService {
  @Tool({ description: "Items, adaptive pages" })
  @Paginated("id", { limit: 20, maxLimit: 100 })
  items(_input: unknown, ctx: ToolContext) {
    return rowsAfter(ITEMS, ctx);
  }

  @Tool()
  @Paginated("id", { limit: 20, maxLimit: 100 })
  @Budget(WORDY_BUDGET)
  wordy(_input: unknown, ctx: ToolContext) {
    return rowsAfter(WORDY, ctx);
  }
}

@McpModule({ services: [AdaptiveService] })
class AdaptiveModule {}

@McpModule({ services: [FixedService] })
class FixedModule {}

type Envelope = {
  items: Array<Record<string, unknown>>;
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
  since?: unknown;
  until?: unknown;
  nextSince?: unknown;
};

describe("adaptive pages", () => {
  let adaptive: TestClient;
  let fixed: TestClient;
  const options = { cursorSecret: SECRET, providers: [{ provide: CLOCK, useValue: clock }] };
  beforeAll(async () => {
    [adaptive, fixed] = await Promise.all([
      createTestClient(AdaptiveModule, options),
      createTestClient(FixedModule, options),
    ]);
  });
  afterAll(async () => {
    await Promise.all([adaptive.close(), fixed.close()]);
  });

  const call = (client: TestClient, name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args });
  const page = async (client: TestClient, name: string, args: Record<string, unknown> = {}) => {
    const result = await call(client, name, args);
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    return { envelope: result.structuredContent as unknown as Envelope, text };
  };
  /** Follows nextCursor to the end as a model would, passing `args` on every call. */
  const walk = async (client: TestClient, name: string, args: Record<string, unknown> = {}) => {
    const pages: Array<Envelope & { tokens: number }> = [];
    let cursor: string | null = null;
    do {
      const { envelope, text } = await page(client, name, cursor ? { ...args, cursor } : args);
      pages.push({ ...envelope, tokens: await tokensOf(text) });
      cursor = envelope.nextCursor;
    } while (cursor);
    return {
      calls: pages.length,
      counts: pages.map((p) => p.count),
      items: pages.flatMap((p) => p.items),
      tokens: pages.map((p) => p.tokens),
      pages,
    };
  };

  it("walks 1,000 items in far fewer calls than fixed pages, every item once and in order", async () => {
    seenLimits.delete("items");
    const grown = await walk(adaptive, "items");
    const flat = await walk(fixed, "items");
    expect(flat.calls).toBe(50);
    expect(grown.counts).toEqual([20, 20, 40, 80, 100, 100, 100, 100, 100, 100, 100, 100, 40]);
    expect(grown.calls).toBe(13);
    expect(grown.items).toEqual(ITEMS);
    expect(flat.items).toEqual(ITEMS);
    // The handler is asked for the grown size, so a SQL LIMIT it pushes down grows too.
    expect(seenLimits.get("items")).toEqual([20, 20, 40, 80, 100, 100, 100, 100, 100, 100, 100, 100, 100]);
  });

  it("answers a one-page look exactly as fixed pages do: same text, same tokens", async () => {
    const grown = await page(adaptive, "items");
    const flat = await page(fixed, "items");
    expect(grown.text).toBe(flat.text);
    expect(await tokensOf(grown.text)).toBe(await tokensOf(flat.text));
    // The second page has the same items too; only its cursor also carries the page count.
    const second = await page(adaptive, "items", { cursor: grown.envelope.nextCursor });
    const flatSecond = await page(fixed, "items", { cursor: flat.envelope.nextCursor });
    expect(second.envelope.items).toEqual(flatSecond.envelope.items);
    const extra = (second.envelope.nextCursor ?? "").length - (flatSecond.envelope.nextCursor ?? "").length;
    // `40` in decimal (2 characters) against 40 and `p: 2` packed (5 bytes, 7 base64url characters).
    expect(extra).toBe(5);
  });

  it("honours a limit the client passes as that page's size, and grows from what it returned", async () => {
    seenLimits.delete("items");
    const first = await page(adaptive, "items", { limit: 50 });
    const second = await page(adaptive, "items", { cursor: first.envelope.nextCursor });
    const third = await page(adaptive, "items", { cursor: second.envelope.nextCursor });
    const pinned = await page(adaptive, "items", { cursor: third.envelope.nextCursor, limit: 5 });
    const after = await page(adaptive, "items", { cursor: pinned.envelope.nextCursor });
    const clamped = await page(adaptive, "items", { cursor: after.envelope.nextCursor, limit: 500 });
    expect([first, second, third, pinned, after, clamped].map((p) => p.envelope.count)).toEqual([
      50, 50, 100, 5, 20, 100,
    ]);
    expect(seenLimits.get("items")).toEqual([50, 50, 100, 5, 20, 100]);
    expect(after.envelope.items[0]?.id).toBe(206);
  });

  it("keeps a small first limit from slowing the walk below fixed pages", async () => {
    const first = await page(adaptive, "items", { limit: 3 });
    const second = await page(adaptive, "items", { cursor: first.envelope.nextCursor });
    expect(second.envelope.count).toBe(20);
    expect(second.envelope.items[0]?.id).toBe(4);
  });

  it("grows within the budget: pages shrink to fit, growth follows what was returned, fewer calls", async () => {
    seenLimits.delete("wordy");
    const grown = await walk(adaptive, "wordy");
    const flat = await walk(fixed, "wordy");
    expect(grown.items).toEqual(WORDY);
    expect(flat.items).toEqual(WORDY);
    for (const tokens of [...grown.tokens, ...flat.tokens]) expect(tokens).toBeLessThanOrEqual(WORDY_BUDGET);
    const limits = seenLimits.get("wordy") ?? [];
    // The budget cut at least one grown page short, and the walk went on right after its last item.
    const shrunk = grown.counts.findIndex((count, i) => count < (limits[i] ?? 0) && i < grown.calls - 1);
    expect(shrunk).toBeGreaterThan(1);
    for (let i = 3; i < grown.calls; i++) {
      // From the third page on: twice what the page before really returned, at least `limit`, at most `maxLimit`.
      expect(limits[i]).toBe(Math.min(100, Math.max(20, 2 * (grown.counts[i - 1] ?? 0))));
    }
    expect(Math.max(...limits)).toBe(100);
    // About 50 items fit the budget: past the first pages, each call returns about that many.
    expect(grown.calls).toBeLessThan(flat.calls / 2);
    expect(flat.calls).toBe(50);
  });

  it("grows no further than a per-call token limit from the client allows", async () => {
    let cursor: string | null = null;
    const counts: number[] = [];
    do {
      const result = await adaptive.client.callTool({
        name: "items",
        arguments: cursor ? { cursor } : {},
        _meta: { "frugal/maxTokens": 400 },
      });
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
      expect(await tokensOf(text)).toBeLessThanOrEqual(400);
      const envelope = result.structuredContent as unknown as Envelope;
      counts.push(envelope.count);
      cursor = envelope.nextCursor;
    } while (cursor && counts.length < 10);
    // Some 50 items fit 400 tokens as a table (27 as JSON): the third page grows past 20,
    // then holds there, far below the 100 that maxLimit would allow.
    expect(counts.slice(0, 2)).toEqual([20, 20]);
    expect(Math.min(...counts.slice(2))).toBeGreaterThan(20);
    expect(Math.max(...counts)).toBeLessThan(80);
  });

  it("serves a cached walk with the same growing pages, each page cached by its size and count", async () => {
    seenLimits.delete("cachedItems");
    const first = await walk(adaptive, "cached_items");
    const again = await walk(adaptive, "cached_items");
    expect(again.counts).toEqual(first.counts);
    expect(first.counts.slice(0, 4)).toEqual([20, 20, 40, 80]);
    expect(again.items).toEqual(ITEMS);
    // The second walk came from the cache: the handler ran once per page of the first.
    expect(seenLimits.get("cachedItems")).toHaveLength(first.calls);
  });

  it("refuses a cursor whose page count was altered, saying to start again", async () => {
    const first = await page(adaptive, "items");
    const second = await page(adaptive, "items", { cursor: first.envelope.nextCursor });
    const token = second.envelope.nextCursor as string;
    // The values are packed after the 4-character header and the 16-character MAC.
    const packed = Buffer.from(token.slice(20), "base64url");
    const at = packed.indexOf(Buffer.from([1, 0x70, 0x22])); // the name "p", then the integer 2
    expect(at).toBeGreaterThan(0);
    packed[at + 2] = 0x29; // the integer 9
    const forged = token.slice(0, 20) + packed.toString("base64url");
    const refused = await call(adaptive, "items", { cursor: forged });
    expect(refused.isError).toBe(true);
    expect((refused.content as Array<{ text: string }>)[0]?.text).toBe(
      "Invalid cursor: the cursor was altered, or belongs to another tool, other arguments or another user. Call items again without `cursor` to start from the first page.",
    );
    // The genuine cursor still works: the page after two of 20 has 40.
    expect((await page(adaptive, "items", { cursor: token })).envelope.count).toBe(40);
  });

  it("accepts a cursor issued without a page count (before adaptive was on) as the walk's second page", async () => {
    const flat = await page(fixed, "items");
    const onward = await page(adaptive, "items", { cursor: flat.envelope.nextCursor });
    expect(onward.envelope.items.map((i) => i.id)).toEqual(ITEMS.slice(20, 40).map((i) => i.id));
    const third = await page(adaptive, "items", { cursor: onward.envelope.nextCursor });
    expect(third.envelope.count).toBe(40);
  });

  it("never repeats or skips a row that existed throughout while rows are inserted mid-walk", async () => {
    growing.splice(
      0,
      growing.length,
      ...Array.from({ length: 400 }, (_, i) => ({ id: (i + 1) * 10, name: "x" })),
    );
    const original = growing.map((r) => r.id);
    const inserted = { before: [] as number[], after: [] as number[] };
    const insert = (id: number, into: number[]) => {
      growing.push({ id, name: "inserted" });
      growing.sort((a, b) => a.id - b.id);
      into.push(id);
    };
    const seen: number[] = [];
    const counts: number[] = [];
    let cursor: string | null = null;
    do {
      const { envelope } = await page(adaptive, "growing", cursor ? { cursor } : {});
      seen.push(...envelope.items.map((i) => Number(i.id)));
      counts.push(envelope.count);
      cursor = envelope.nextCursor;
      const last = seen[seen.length - 1] as number;
      if (cursor && counts.length % 2 === 1) {
        insert(last - 5, inserted.before); // just before the cursor: already passed
        insert(1, inserted.before); // before every row
        insert(last + 5, inserted.after); // just after the cursor: still ahead
        insert(10_000 + counts.length, inserted.after); // after every row
      }
    } while (cursor);
    expect(counts.slice(0, 4)).toEqual([10, 10, 20, 40]);
    expect(new Set(seen).size).toBe(seen.length);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1] as number);
    expect(seen.filter((id) => original.includes(id))).toEqual(original);
    for (const id of inserted.before) expect(seen).not.toContain(id);
    for (const id of inserted.after) expect(seen).toContain(id);
  });

  it("grows count-bounded stream chunks up to maxLimit", async () => {
    const { counts, items } = await walk(adaptive, "feed");
    expect(counts).toEqual([10, 10, 20, 40, 80, 80, 60]);
    expect(items.map((i) => i.seq)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it("grows the chunks of a time window, which keeps its range, and says where the next one starts", async () => {
    const since = new Date(START).toISOString();
    const { counts, items, pages } = await walk(adaptive, "tail", { since });
    expect(counts).toEqual([10, 10, 20, 40, 80, 100, 100, 100, 100, 40]);
    expect(items.map((i) => i.id)).toEqual(EVENTS.slice(0, 600).map((e) => e.id));
    const until = new Date(START + 10 * MINUTE).toISOString();
    for (const chunk of pages) expect({ since: chunk.since, until: chunk.until }).toEqual({ since, until });
    expect(pages.at(-1)?.nextSince).toBe(until);
  });

  it("grows size-bounded chunks in count while each stays within maxBytes", async () => {
    const { counts, items, pages } = await walk(adaptive, "metrics");
    expect(items.map((i) => i.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(counts.slice(0, 4)).toEqual([5, 5, 10, 20]);
    const bytes = (chunk: unknown[]) => Buffer.byteLength(JSON.stringify(chunk));
    for (const [i, chunk] of pages.entries()) {
      expect(bytes(chunk.items)).toBeLessThanOrEqual(600);
      // From the fifth chunk on, the byte bound is what ends a chunk, not the grown count (40, 80, …).
      const next = pages[i + 1]?.items[0];
      if (i >= 4 && next) expect(bytes([...chunk.items, next])).toBeGreaterThan(600);
    }
  });

  it("grows the pages of a resource template read through its cursor query variable", async () => {
    const read = async (uri: string) =>
      JSON.parse(
        String(((await adaptive.client.readResource({ uri })).contents[0] as { text?: string }).text),
      ) as Envelope;
    const counts: number[] = [];
    let envelope = await read("catalog://items");
    counts.push(envelope.count);
    while (envelope.nextCursor && counts.length < 4) {
      envelope = await read(`catalog://items?cursor=${envelope.nextCursor}`);
      counts.push(envelope.count);
    }
    expect(counts).toEqual([20, 20, 40, 80]);
  });

  it("tells the model, in the limit's description, to leave it out to let pages grow", async () => {
    const { tools } = await adaptive.client.listTools();
    const limit = tools.find((t) => t.name === "items")?.inputSchema.properties?.limit as {
      description?: string;
    };
    expect(limit.description).toBe(
      "Page size (default 20; 0: the total only). Omit it after the first page to let pages grow.",
    );
  });
});

describe("adaptive chunks of a tail polled with since = nextSince", () => {
  let t: TestClient;
  const options = { cursorSecret: SECRET, providers: [{ provide: CLOCK, useValue: clock }] };
  beforeAll(async () => {
    t = await createTestClient(AdaptiveModule, options);
  });
  afterAll(() => t.close());

  /** One poll of `tail`: the chunks of the window after `since`, following nextCursor. */
  const poll = async (client: Client, since: unknown) => {
    const counts: number[] = [];
    const ids: unknown[] = [];
    let envelope: Envelope | undefined;
    do {
      const args: Record<string, unknown> = envelope?.nextCursor
        ? { since, cursor: envelope.nextCursor }
        : { since };
      const result = await client.callTool({ name: "tail", arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      envelope = result.structuredContent as unknown as Envelope;
      counts.push(envelope.count);
      ids.push(...envelope.items.map((item) => item.id));
    } while (envelope.nextCursor);
    return { counts, ids, nextSince: envelope.nextSince };
  };

  it("a tail poll goes on with the walk's growth instead of starting at limit again", async () => {
    const first = await poll(t.client, new Date(START).toISOString());
    expect(first.counts).toEqual([10, 10, 20, 40, 80, 100, 100, 100, 100, 40]);
    // The walk's last chunk had 40 items: the next poll's first one has twice that.
    const second = await poll(t.client, first.nextSince);
    expect(second.counts).toEqual([80, 100, 100, 100, 100, 100, 20]);
    const third = await poll(t.client, second.nextSince);
    expect(third.counts).toEqual([40, 80, 100, 100, 100, 100, 80]);
    // Every event of the half hour once, in order.
    expect([...first.ids, ...second.ids, ...third.ids]).toEqual(EVENTS.slice(0, 1800).map((e) => e.id));
  });

  it("starts at limit from a since it did not hand out, or one it handed to another caller", async () => {
    const handedOut = (await poll(t.client, new Date(START + 20 * MINUTE).toISOString())).nextSince;
    const other = await t.connect();
    const theirs = await poll(other, handedOut);
    expect(theirs.counts.slice(0, 3)).toEqual([10, 10, 20]);
    // The caller it was handed to goes on growing …
    expect((await poll(t.client, handedOut)).counts[0]).toBe(80);
    // … but not from a time of its own choosing.
    const elsewhere = await poll(t.client, new Date(START + 31 * MINUTE).toISOString());
    expect(elsewhere.counts.slice(0, 3)).toEqual([10, 10, 20]);
  });

  it("a limit the client passes on a tail poll is that chunk's size; the walk grows on from what it returned", async () => {
    const first = await poll(t.client, new Date(START + 40 * MINUTE).toISOString());
    const sized = await t.callTool({ name: "tail", arguments: { since: first.nextSince, limit: 7 } });
    let chunk = sized.structuredContent as unknown as Envelope;
    const counts = [chunk.count];
    while (chunk.nextCursor && counts.length < 5) {
      const next = await t.callTool({
        name: "tail",
        arguments: { since: first.nextSince, cursor: chunk.nextCursor },
      });
      chunk = next.structuredContent as unknown as Envelope;
      counts.push(chunk.count);
    }
    expect(counts).toEqual([7, 14, 28, 56, 100]);
  });
});
