/**
 * Issue 13, finding 4: one session's search of (or write of) a 25 MiB resource must not
 * stall every other session. Each search call does bounded work and answers with where to
 * continue; both search and create let the event loop run every few milliseconds.
 *
 *   npx vitest run test/reliability/event-loop.test.ts
 */
import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const LINES = 250_000;
const NEEDLE_EVERY = 2_500;
/** About 25 MiB of log lines; every 2,500th holds a needle. */
const TEXT = Array.from({ length: LINES }, (_, i) =>
  i % NEEDLE_EVERY === 1234
    ? `2026-11-29T10:00:00Z WARN request ${i} needle-${i} lorem ipsum dolor sit amet consectetur adipiscing`
    : `2026-11-29T10:00:00Z INFO request ${i} served in 12 ms lorem ipsum dolor sit amet consectetur adipiscing`,
).join("\n");
const NEEDLES = Array.from({ length: LINES / NEEDLE_EVERY }, (_, k) => k * NEEDLE_EVERY + 1234);
/** About 25 MiB of JSON items, made once so that a call's time is the framework's. */
const ITEMS = Array.from({ length: 250_000 }, (_, i) => ({
  id: i,
  name: `item ${i}`,
  body: "lorem ipsum dolor sit amet consectetur adipiscing elit",
}));

@McpService()
class BigService {
  @Tool()
  async makeText(_input: unknown, ctx: ToolContext) {
    const info = await ctx.resources.create(TEXT, { mimeType: "text/plain" });
    return { uri: info.uri, size: info.size, total: info.total };
  }

  @Tool()
  async makeItems(_input: unknown, ctx: ToolContext) {
    const info = await ctx.resources.create(ITEMS);
    return { uri: info.uri, size: info.size, total: info.total };
  }

  @Tool()
  ping() {
    return "pong";
  }
}

@McpModule({ services: [BigService] })
class BigModule {}

interface Measured<T> {
  result: T;
  /** Latency of each trivial call the other session made meanwhile, in ms. */
  latencies: number[];
  /** Longest event-loop block seen meanwhile, in ms. */
  maxBlockMs: number;
}

/**
 * The longest event-loop block while it runs: the largest gap between ticks of a 1 ms
 * timer, and the `perf_hooks` event-loop delay histogram's maximum (whichever is larger).
 */
function blockMonitor(): { stop(): Promise<number> } {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return {
    async stop() {
      // One more turn, so a block that lasted until now is seen by the timer and the histogram.
      await new Promise((resolve) => setTimeout(resolve, 5));
      clearInterval(tick);
      histogram.disable();
      return Math.max(longest, histogram.max / 1e6);
    },
  };
}

/** Runs `work` while `other` calls `ping` again and again, measuring what the other session sees. */
async function whileOtherPings<T>(other: Client, work: () => Promise<T>): Promise<Measured<T>> {
  const monitor = blockMonitor();
  let done = false;
  const latencies: number[] = [];
  const pinging = (async () => {
    while (!done) {
      // Each call arrives as its own event, as a request over a socket does (the in-memory
      // transport would otherwise chain calls as microtasks that no event-loop turn separates).
      // Latency counts from when the call was due, so time it waited for the event loop counts too.
      const due = performance.now() + 2;
      await new Promise((resolve) => setTimeout(resolve, 2));
      await other.callTool({ name: "ping", arguments: {} });
      latencies.push(performance.now() - due);
    }
  })();
  let outcome: { result: T } | { error: unknown };
  try {
    outcome = { result: await work() };
  } catch (error) {
    outcome = { error };
  }
  done = true;
  await pinging;
  const maxBlockMs = await monitor.stop();
  if ("error" in outcome) throw outcome.error;
  return { result: outcome.result, latencies, maxBlockMs };
}

type Search = {
  matches: Array<{ index: number; text?: string }>;
  count: number;
  total: number;
  scanned: number;
  nextOffset: number | null;
  hasMore: boolean;
  hint?: string;
};

async function search(client: Client, args: Record<string, unknown>, maxTokens?: number): Promise<Search> {
  const result = await client.callTool({
    name: "search_resource",
    arguments: args,
    ...(maxTokens === undefined ? {} : { _meta: { "frugal/maxTokens": maxTokens } }),
  });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Search;
}

describe("a 25 MiB resource never stalls other sessions", () => {
  let t: TestClient;
  let other: Client;
  let uri: string;

  beforeAll(async () => {
    t = await createTestClient(BigModule, { ephemeral: { tools: true } });
    other = await t.connect();
    const made = await t.callTool({ name: "make_text", arguments: {} });
    ({ uri } = made.structuredContent as { uri: string });
    expect((made.structuredContent as { size: number }).size).toBeGreaterThan(24 * 1024 * 1024);
    // Start-up work that happens once per process is not what is measured: loading the
    // tokenizer and the RE2 engine (a search of the last lines uses both).
    await search(t, { uri, pattern: "needle-\\d+", regex: true, offset: LINES - 10 });
  });
  afterAll(() => t.close());

  it("answers another session's call within 150 ms while a regular-expression search runs, and says where to go on", async () => {
    const measured = await whileOtherPings(other, () =>
      search(t, { uri, pattern: "needle-\\d+ lorem", regex: true, limit: 500 }),
    );
    const slowest = Math.max(...measured.latencies);
    console.log(
      `search (regex, 25 MiB): ${measured.latencies.length} calls of another session, slowest ${slowest.toFixed(1)} ms; max event-loop block ${measured.maxBlockMs.toFixed(1)} ms`,
    );
    expect(measured.latencies.length).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(150);
    // One call searched a bounded part and says where the rest starts.
    const first = measured.result;
    expect(first.hasMore).toBe(true);
    expect(first.nextOffset).toBeGreaterThan(0);
    expect(first.nextOffset).toBeLessThan(LINES);
    expect(first.scanned).toBe(first.nextOffset);
    expect(first.hint).toContain(`offset ${first.nextOffset}`);
    expect(first.matches.map((m) => m.index)).toEqual(NEEDLES.filter((p) => p < (first.nextOffset ?? 0)));
  });

  it.each([
    { name: "few matches per call", limit: 7, maxTokens: undefined },
    { name: "calls cut by a small token budget", limit: 500, maxTokens: 300 },
  ])(
    "a walk by nextOffset finds every match exactly once ($name)",
    async ({ limit, maxTokens }) => {
      const found: number[] = [];
      let offset = 0;
      let calls = 0;
      for (;;) {
        const page = await search(t, { uri, pattern: "needle-", offset, limit }, maxTokens);
        calls++;
        found.push(...page.matches.map((m) => m.index));
        expect(page.matches.every((m) => m.text?.includes(`needle-${m.index}`))).toBe(true);
        if (!page.hasMore) break;
        expect(page.nextOffset).toBeGreaterThan(offset);
        expect(page.scanned).toBe((page.nextOffset ?? 0) - offset);
        offset = page.nextOffset ?? 0;
        expect(calls).toBeLessThan(200);
      }
      expect(found).toEqual(NEEDLES);
    },
    15_000,
  );

  it("answers another session's call within 150 ms while a 25 MiB JSON array is stored", async () => {
    const measured = await whileOtherPings(other, () => t.callTool({ name: "make_items", arguments: {} }));
    const slowest = Math.max(...measured.latencies);
    console.log(
      `create (JSON array, 25 MiB): ${measured.latencies.length} calls of another session, slowest ${slowest.toFixed(1)} ms; max event-loop block ${measured.maxBlockMs.toFixed(1)} ms`,
    );
    const made = measured.result.structuredContent as { size: number; total: number };
    expect(made.total).toBe(ITEMS.length);
    expect(made.size).toBeGreaterThan(20 * 1024 * 1024);
    expect(measured.latencies.length).toBeGreaterThan(0);
    expect(slowest).toBeLessThan(150);
  });
});
