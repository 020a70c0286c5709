import { BpeTokenCounter, createTestClient, type TestClient } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LogSearchModule } from "../../examples/log-search/app.module.js";
import { LOG_LINE_COUNT, LogCorpus } from "../../examples/log-search/log-corpus.js";

/** The budget every answer must fit: the framework's default spill budget. */
const BUDGET = 2_000;
const counter = new BpeTokenCounter();

/** Tokens a model reads of a tool result: its text blocks and resource links (as the budget counts them). */
async function tokensOf(result: Record<string, unknown>): Promise<number> {
  let tokens = 0;
  let sawText = false;
  for (const block of (result.content ?? []) as Array<Record<string, unknown>>) {
    if (block.type === "text") {
      sawText = true;
      tokens += (await counter.count(String(block.text), 100_000)).tokens;
    } else if (block.type === "resource_link") {
      const { type: _type, ...link } = block;
      tokens += (await counter.count(JSON.stringify(link), 100_000)).tokens;
    }
  }
  if (!sawText && result.structuredContent !== undefined)
    tokens += (await counter.count(JSON.stringify(result.structuredContent), 100_000)).tokens;
  return tokens;
}

type Slice = {
  lines: string[];
  offset: number;
  count: number;
  total: number;
  nextOffset: number | null;
  hasMore: boolean;
  version: number;
};
type Search = {
  matches: Array<{ index: number; text: string }>;
  count: number;
  nextOffset: number | null;
  hasMore: boolean;
};

describe("examples/log-search: a multi-megabyte search result read in slices", () => {
  let t: TestClient;
  const corpus = new LogCorpus();
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await t.client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.content).slice(0, 500)).toBeFalsy();
    expect(await tokensOf(result)).toBeLessThanOrEqual(BUDGET);
    return result;
  };

  beforeAll(async () => {
    t = await createTestClient(LogSearchModule, { cursorSecret: "log-search-test-secret" });
  });
  afterAll(() => t.close());

  it("generates the same million lines every time, from their sequence numbers", () => {
    expect(corpus.size).toBe(LOG_LINE_COUNT);
    const again = new LogCorpus();
    for (const seq of [0, 1, 12_345, 999_999]) expect(again.line(seq)).toBe(corpus.line(seq));
    expect(corpus.line(0)).toMatch(
      /^2026-03-01T00:00:00\.\d{3}Z (DEBUG|INFO|WARN|ERROR) [a-z]+ req=[0-9a-f]{8} .+$/,
    );
    expect(corpus.entry(999_999).at < "2026-03-02T00:00:00.000Z").toBe(true);
  });

  it("search_logs answers a multi-megabyte result with a link and a summary within the budget", async () => {
    const result = await call("search_logs", { query: "WARN" });
    const [link, summary] = result.content as [
      { type: string; uri: string; mimeType: string },
      { type: string; text: string },
    ];
    expect(link.type).toBe("resource_link");
    expect(link.uri).toMatch(/^ephemeral:\/\/search_logs\/[A-Za-z0-9_-]{22}$/);
    expect(link.mimeType).toBe("text/plain");
    const { spilled } = result.structuredContent as { spilled: { size: number; expiresAt: string } };
    expect(spilled.size).toBeGreaterThan(5_000_000);
    expect(Date.parse(spilled.expiresAt) - Date.now()).toBeGreaterThan(3_500_000);
    const total = Number(/(\d+) lines of text/.exec(summary.text)?.[1]);
    expect(total).toBeGreaterThan(50_000);
    expect(summary.text).toContain("read_resource");
    expect(summary.text).toContain("search_resource");
    expect(summary.text).toMatch(/Preview \((first|start of the first)/);

    // The client finds what it needs inside the result, then reads around it.
    const found = (
      await call("search_resource", { uri: link.uri, pattern: "retrying job", limit: 5, whole: true })
    ).structuredContent as Search;
    expect(found.matches.length).toBeGreaterThan(0);
    expect(found.hasMore).toBe(true);
    for (const match of found.matches) {
      expect(match.text).toContain(" WARN ");
      expect(match.text).toContain("retrying job");
    }
    const next = (
      await call("search_resource", {
        uri: link.uri,
        pattern: "attempt [34]\\)$",
        regex: true,
        offset: found.nextOffset,
        limit: 5,
      })
    ).structuredContent as Search;
    expect(next.matches.every((m) => m.index >= (found.nextOffset as number))).toBe(true);
    expect(next.matches.every((m) => /attempt [34]\)$/.test(m.text))).toBe(true);

    const at = found.matches[0]?.index as number;
    const around = (await call("read_resource", { uri: link.uri, offset: Math.max(0, at - 2), limit: 5 }))
      .structuredContent as Slice;
    expect(around.lines).toContain(found.matches[0]?.text);
    expect(around.total).toBe(total);

    // Walks slices from the first line and from deep inside: each one is held to the budget.
    const first = (await call("read_resource", { uri: link.uri })).structuredContent as Slice;
    expect(first.count).toBeGreaterThan(10);
    expect(first.nextOffset).toBe(first.count);
    const second = (await call("read_resource", { uri: link.uri, offset: first.nextOffset }))
      .structuredContent as Slice;
    expect(second.offset).toBe(first.count);
    expect(second.version).toBe(first.version);
    for (const line of [...first.lines, ...second.lines]) expect(line).toContain(" WARN ");
    const last = (await call("read_resource", { uri: link.uri, offset: total - 3, limit: 50 }))
      .structuredContent as Slice;
    expect(last).toMatchObject({ count: 3, nextOffset: null, hasMore: false });
    // A slice without limit may ask for far more than fits: the budget trims it.
    const wide = (await call("read_resource", { uri: link.uri, offset: 40_000, limit: 5_000 }))
      .structuredContent as Slice;
    expect(wide.count).toBeLessThan(5_000);
    expect(wide.nextOffset).toBe(40_000 + wide.count);

    // The stored lines are the corpus's matching lines, in order.
    const expected: string[] = [];
    for (let seq = 0; expected.length < first.count; seq++) {
      const line = corpus.line(seq);
      if (line.includes("WARN")) expected.push(line);
    }
    expect(first.lines).toEqual(expected);
  });

  it("answers a narrow search inline, and a search with no match says so", async () => {
    const req = /req=[0-9a-f]{8}/.exec(corpus.line(424_242))?.[0] as string;
    const inline = await call("search_logs", { query: req });
    expect(inline.content).toEqual([{ type: "text", text: corpus.line(424_242) }]);
    const none = await call("search_logs", { query: "no such text anywhere" });
    expect((none.content as Array<{ text: string }>)[0]?.text).toBe(
      'No log line contains "no such text anywhere".',
    );
  });

  it("tail pages the newest lines, newest first, with a cursor", async () => {
    const first = await call("tail", { limit: 3 });
    // The text is the log lines themselves (`line`), then the envelope line.
    const [lines, envelope] = (first.content as Array<{ text: string }>)[0]?.text.split("\n\n") ?? [];
    expect(lines).toBe([999_999, 999_998, 999_997].map((seq) => corpus.line(seq)).join("\n"));
    expect(envelope).toMatch(/^nextCursor=\S+ hasMore=true$/);
    const page1 = first.structuredContent as {
      items: Array<{ seq: number; line: string }>;
      nextCursor: string;
      hasMore: boolean;
    };
    expect(page1.items.map((r) => r.seq)).toEqual([999_999, 999_998, 999_997]);
    expect(page1.items[0]?.line).toBe(corpus.line(999_999));
    expect(page1.hasMore).toBe(true);
    const page2 = (await call("tail", { limit: 3, cursor: page1.nextCursor })).structuredContent as {
      items: Array<{ seq: number }>;
    };
    expect(page2.items.map((r) => r.seq)).toEqual([999_996, 999_995, 999_994]);
  });

  const read = async (uri: string) =>
    JSON.parse(((await t.client.readResource({ uri })).contents[0] as { text: string }).text) as {
      items: Array<{ seq: number; at: string }>;
      nextCursor: string | null;
      since: string;
      until: string;
      first: string;
      last: string;
      nextSince?: string;
    };

  it("streams the log in time-bounded chunks that say what they cover", async () => {
    const since = "2026-03-01T00:10:00.000Z";
    const first = await read(`logs://stream?since=${since}&limit=50`);
    expect(first.items).toHaveLength(50);
    expect(first.since).toBe(since);
    expect(first.until).toBe("2026-03-01T00:15:00.000Z");
    expect(first.first > since).toBe(true);
    const second = await read(`logs://stream?cursor=${first.nextCursor}&since=${since}&limit=50`);
    expect(second.items[0]?.seq).toBe((first.items[49]?.seq ?? 0) + 1);
    // The whole window, walked to its end, stops at `until` and says where the next one starts.
    let chunk = second;
    let lines = 100;
    while (chunk.nextCursor) {
      chunk = await read(`logs://stream?since=${since}&limit=500&cursor=${chunk.nextCursor}`);
      lines += chunk.items.length;
      for (const item of chunk.items) expect(item.at <= "2026-03-01T00:15:00.000Z").toBe(true);
    }
    expect(chunk.nextSince).toBe("2026-03-01T00:15:00.000Z");
    expect(lines).toBeGreaterThan(3400);
    expect(lines).toBeLessThan(3550);
  });

  it("tails logs://stream by nextSince: three windows in a row, every line exactly once", async () => {
    let since = "2026-03-01T00:10:00.000Z";
    const seqs: number[] = [];
    for (let window = 0; window < 3; window++) {
      let chunk = await read(`logs://stream?since=${since}&limit=500`);
      for (const item of chunk.items) seqs.push(item.seq);
      while (chunk.nextCursor) {
        chunk = await read(`logs://stream?since=${since}&limit=500&cursor=${chunk.nextCursor}`);
        for (const item of chunk.items) seqs.push(item.seq);
      }
      expect(chunk.nextSince).toBe(chunk.until);
      since = chunk.nextSince ?? "";
    }
    expect(since).toBe("2026-03-01T00:25:00.000Z");
    // Consecutive sequence numbers: no line skipped, none repeated across windows.
    expect(seqs.every((seq, i) => i === 0 || seq === (seqs[i - 1] ?? -2) + 1)).toBe(true);
    expect(seqs.length).toBeGreaterThan(10_000);
  });
});
