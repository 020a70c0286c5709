/**
 * Issue 23, defect 1, on the real clock: a writer appends a line every 3 ms (stamped with
 * `Date.now()`), while a client tails the log as fast as it can with `since = nextSince`.
 * Every line must arrive exactly once. With windows that ended at the clock's now, 3.7 to
 * 5.5 % of lines were lost: those stamped in the millisecond a window ended but appended
 * after the handler's snapshot. The end-to-end test of the same race, on a ManualClock,
 * is in test/e2e/stream-chunks.test.ts ("tailing a log with a busy writer").
 */
import { McpModule, McpService, Paginated, Tool } from "frugal-mcp";
import { createTestClient } from "frugal-mcp/testing";
import { describe, expect, it } from "vitest";

type Line = { at: Date; seq: number };
const log: Line[] = [];

@McpService()
class BusyLog {
  /** A snapshot of the log, as a query would read it. */
  @Tool()
  @Paginated(["at", "seq"], { limit: 500, stream: { window: 60_000 } })
  async *tail() {
    yield* [...log];
  }
}

@McpModule({ services: [BusyLog] })
class BusyLogModule {}

type Chunk = { items: Line[]; nextCursor: string | null; nextSince?: unknown };

describe("tailing a busy log on the real clock", () => {
  it("a line every 3 ms for 1.5 s, polled back to back: every line exactly once", async () => {
    const t = await createTestClient(BusyLogModule);
    log.length = 0;
    let seq = 0;
    const writer = setInterval(() => log.push({ at: new Date(), seq: ++seq }), 3);
    const seen: number[] = [];
    let since: unknown = new Date(Date.now() - 1).toISOString();
    const poll = async () => {
      let page: Chunk | undefined;
      do {
        const args: Record<string, unknown> = page?.nextCursor
          ? { since, cursor: page.nextCursor }
          : { since };
        page = (await t.client.callTool({ name: "tail", arguments: args })).structuredContent as Chunk;
        seen.push(...page.items.map((line) => line.seq));
      } while (page.nextCursor);
      since = page.nextSince;
      // The in-memory transport answers in microtasks: let the writer's timer run between polls.
      await new Promise((resolve) => setImmediate(resolve));
    };
    try {
      const stopAt = Date.now() + 1_500;
      while (Date.now() < stopAt) await poll();
      clearInterval(writer);
      // The writer has stopped: poll until every line is in (each poll settles a little further), or give up.
      const giveUpAt = Date.now() + 2_000;
      while (seen.length < seq && Date.now() < giveUpAt) await poll();
      // A busy writer all the same, even on a loaded machine whose timers run late.
      expect(seq).toBeGreaterThan(100);
      const missing = Array.from({ length: seq }, (_, i) => i + 1).filter((n) => !seen.includes(n));
      expect(missing, `${missing.length} of ${seq} lines lost`).toEqual([]);
      expect(seen).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
    } finally {
      clearInterval(writer);
      await t.close();
    }
  });
});
