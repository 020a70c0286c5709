/**
 * Size only (`limit: 0`) and last N (`tail: N`) through the SDK client: what the model asks
 * when it wants a number or the newest lines, answered without a page it does not need.
 */
import {
  Budget,
  CLOCK,
  ManualClock,
  McpModule,
  McpService,
  Paginated,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const START = Date.UTC(2026, 10, 1, 12, 0, 0);
const MINUTE = 60_000;
const clock = new ManualClock(START + 60 * MINUTE);
/** One line every 20 seconds for the hour before the clock; `arrive` adds more. */
const LINES = Array.from({ length: 180 }, (_, i) => ({ at: new Date(START + i * 20_000), seq: i }));
const FEED = Array.from({ length: 30 }, (_, i) => ({ seq: i + 1, kind: i % 2 ? "odd" : "even" }));
const ISSUES = Array.from({ length: 57 }, (_, i) => ({ id: i + 1, state: i % 3 === 0 ? "closed" : "open" }));
const seen: { page?: ToolContext["page"] } = {};

@McpService()
class SizesService {
  @Tool({ input: { state: z.enum(["open", "closed"]).optional() } })
  @Paginated("id", { limit: 10 })
  counted({ state }: { state?: string }, ctx: ToolContext) {
    seen.page = ctx.page;
    const all = ISSUES.filter((i) => state === undefined || i.state === state);
    const after = (ctx.page?.after?.id as number | undefined) ?? 0;
    const limit = ctx.page?.limit ?? 10;
    // limit 0: nothing to fetch, the total alone (what a COUNT(*) would give).
    return {
      items: limit === 0 ? [] : all.filter((i) => i.id > after).slice(0, limit + 1),
      total: all.length,
    };
  }

  @Tool({
    input: { state: z.enum(["open", "closed"]).optional() },
    output: { id: z.number(), state: z.string() },
  })
  @Paginated("id", { limit: 10 })
  whole({ state }: { state?: string }) {
    return ISSUES.filter((i) => state === undefined || i.state === state);
  }

  @Tool()
  @Paginated("id", { limit: 10, aggregate: false })
  keyset(_input: unknown, ctx: ToolContext) {
    const after = (ctx.page?.after?.id as number | undefined) ?? 0;
    return ISSUES.filter((i) => i.id > after).slice(0, (ctx.page?.limit ?? 10) + 1);
  }

  @Tool()
  @Paginated("id", { limit: 10 })
  async *generated() {
    for (const issue of ISSUES) yield issue;
  }

  @Tool()
  @Paginated(["at", "seq"], { limit: 10, maxLimit: 50, stream: { window: 5 * MINUTE } })
  logs(_input: unknown, ctx: ToolContext) {
    seen.page = ctx.page;
    const since = ctx.page?.since ?? null;
    const until = ctx.page?.until ?? null;
    return LINES.filter(
      (l) => (since === null || l.at > (since as Date)) && (until === null || l.at <= (until as Date)),
    );
  }

  /** The same lines under a budget too small for a tail of 40 in one answer. */
  @Tool()
  @Paginated(["at", "seq"], { limit: 10, maxLimit: 50, stream: { window: 5 * MINUTE } })
  @Budget(250)
  narrow(_input: unknown, ctx: ToolContext) {
    const since = ctx.page?.since ?? null;
    const until = ctx.page?.until ?? null;
    return LINES.filter(
      (l) => (since === null || l.at > (since as Date)) && (until === null || l.at <= (until as Date)),
    );
  }

  @Tool()
  @Paginated("seq", { limit: 5, maxLimit: 20, stream: {} })
  feed() {
    return FEED;
  }
}

@McpModule({ services: [SizesService] })
class SizesModule {}

type Result = Awaited<ReturnType<TestClient["client"]["callTool"]>>;
const textOf = (result: Result) => (result.content as Array<{ text: string }>).map((b) => b.text).join("\n");

describe("size only and last N", () => {
  let t: TestClient;
  const call = (name: string, args: Record<string, unknown> = {}) =>
    t.client.callTool({ name, arguments: args });
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await call(name, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    return result;
  };
  beforeAll(async () => {
    t = await createTestClient(SizesModule, { providers: [{ provide: CLOCK, useValue: clock }] });
  });
  afterAll(() => t.close());

  it("limit: 0 answers the handler's total alone, in one short line", async () => {
    const result = await ok("counted", { state: "open", limit: 0 });
    expect(seen.page?.limit).toBe(0);
    expect(result.structuredContent).toEqual({ total: 38 });
    expect(textOf(result)).toBe("total=38");
  });

  it("counts a whole array the framework orders itself, and its declared output allows the answer", async () => {
    const result = await ok("whole", { state: "closed", limit: 0 });
    expect(result.structuredContent).toEqual({ total: 19 });
    const { tools } = await t.client.listTools();
    const properties = tools.find((tool) => tool.name === "whole")?.inputSchema.properties ?? {};
    const limit = (properties as Record<string, any>).limit;
    expect(limit.minimum).toBe(0);
    expect(limit.description).toMatch(/0: the total only/);
  });

  it("says the total is unknown when the handler pages itself and gives none", async () => {
    const keyset = await ok("keyset", { limit: 0 });
    expect(keyset.structuredContent).toEqual({ total: null });
    expect(textOf(keyset)).toMatch(/^total unknown: .*page through it/);
    // Where the tool offers `aggregate`, the answer points to it.
    const generated = await ok("generated", { limit: 0 });
    expect(generated.structuredContent).toEqual({ total: null });
    expect(textOf(generated)).toMatch(/aggregate: \{"count": true\} counts every item/);
  });

  it("refuses a negative limit", async () => {
    const result = await call("counted", { limit: -1 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/limit/);
  });

  it("tail: N answers the newest N lines of the latest window, oldest first, and nextSince to poll on", async () => {
    const result = await ok("logs", { tail: 5 });
    const chunk = result.structuredContent as any;
    expect(seen.page?.tail).toBe(5);
    expect(chunk.items.map((l: { seq: number }) => l.seq)).toEqual([175, 176, 177, 178, 179]);
    expect(chunk.hasMore).toBe(false);
    expect(chunk.nextCursor).toBeNull();
    expect(chunk.nextSince).toBe(new Date(START + 60 * MINUTE - 1).toISOString());
    // New lines arrive: a poll from nextSince gets exactly them.
    LINES.push({ at: new Date(START + 60 * MINUTE + 5_000), seq: 180 });
    LINES.push({ at: new Date(START + 60 * MINUTE + 25_000), seq: 181 });
    clock.advance(30_000);
    const next = (await ok("logs", { since: chunk.nextSince })).structuredContent as any;
    expect(next.items.map((l: { seq: number }) => l.seq)).toEqual([180, 181]);
  });

  it("steps back window by window when the latest holds fewer than N, and stops at until", async () => {
    // 15 lines a window: 40 lines take three windows.
    const until = new Date(START + 30 * MINUTE).toISOString();
    const chunk = (await ok("logs", { tail: 40, until })).structuredContent as any;
    const seqs = chunk.items.map((l: { seq: number }) => l.seq);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => 51 + i));
    expect(chunk.until).toBe(until);
    expect(chunk.nextSince).toBe(until);
  });

  it("a tail the budget shrinks goes on by nextCursor, across the windows it read, and ends with nextSince", async () => {
    const until = new Date(START + 30 * MINUTE).toISOString();
    const first = (await ok("narrow", { tail: 40, until })).structuredContent as any;
    expect(first.hasMore).toBe(true);
    expect(first.count).toBeLessThan(40);
    const seqs = first.items.map((l: { seq: number }) => l.seq);
    let cursor = first.nextCursor;
    let last = first;
    while (cursor) {
      last = (await ok("narrow", { tail: 40, until, cursor })).structuredContent as any;
      seqs.push(...last.items.map((l: { seq: number }) => l.seq));
      cursor = last.nextCursor;
    }
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => 51 + i));
    expect(last.nextSince).toBe(until);
  });

  it("counts a stream's range with aggregate", async () => {
    const range = { since: new Date(START).toISOString(), until: new Date(START + 5 * MINUTE).toISOString() };
    const counted = (await ok("logs", { ...range, aggregate: { count: true } })).structuredContent as any;
    expect(counted).toEqual({ groups: [{ key: {}, count: 15 }], total: 15, scanned: 15 });
  });

  it("tail on a stream of sequence numbers: the last N, and nextSince is the last one", async () => {
    const chunk = (await ok("feed", { tail: 3 })).structuredContent as any;
    expect(chunk.items.map((i: { seq: number }) => i.seq)).toEqual([28, 29, 30]);
    expect(chunk.nextSince).toBe(30);
    FEED.push({ seq: 31, kind: "even" });
    const next = (await ok("feed", { since: chunk.nextSince })).structuredContent as any;
    expect(next.items.map((i: { seq: number }) => i.seq)).toEqual([31]);
  });

  it("refuses tail with since, a tail of 0, and a tail past maxLimit, saying why", async () => {
    const withSince = await call("logs", { tail: 5, since: START });
    expect(withSince.isError).toBe(true);
    expect(textOf(withSince)).toMatch(/tail takes the newest items up to until and does not go with since/);
    const zero = await call("logs", { tail: 0 });
    expect(zero.isError).toBe(true);
    expect(textOf(zero)).toMatch(/tail/);
    const tooMany = await call("feed", { tail: 21 });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toMatch(/tail/);
    // Only streams take a tail.
    const { tools } = await t.client.listTools();
    const inputs = (name: string) =>
      Object.keys(tools.find((tool) => tool.name === name)?.inputSchema.properties ?? {});
    expect(inputs("logs")).toContain("tail");
    expect(inputs("counted")).not.toContain("tail");
  });
});
