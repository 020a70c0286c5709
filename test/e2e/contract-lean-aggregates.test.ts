/**
 * The contract's "Lean answers" (size only, last N, inside long values) and "Aggregates and
 * queries" (the `aggregate` input on paginated tools), written from the contract's text alone
 * and driven through the SDK client: a check that the implementation says what the contract says.
 */
import {
  createTestClient,
  Ephemeral,
  McpModule,
  McpService,
  Paginated,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

interface Issue {
  id: number;
  state: "open" | "closed";
  labels: string[];
  points: number;
}

const ISSUES: Issue[] = Array.from({ length: 250 }, (_, i) => ({
  id: i + 1,
  state: i % 3 === 0 ? "closed" : "open",
  labels: i % 2 === 0 ? ["bug", "ui"] : ["docs"],
  points: i % 5,
}));

const LOG = Array.from({ length: 500 }, (_, i) => ({ seq: i + 1, line: `line ${i + 1}` }));
const LONG = `${"lorem ipsum ".repeat(30_000)}NEEDLE${" dolor sit".repeat(10_000)}`;

const pushed: unknown[] = [];

@McpService()
class ProbeService {
  /** The framework orders and counts (the handler never reads ctx.page). */
  @Tool({ input: { state: z.enum(["open", "closed"]).optional() } })
  @Paginated("id", { limit: 20 })
  issues({ state }: { state?: "open" | "closed" }) {
    return ISSUES.filter((issue) => state === undefined || issue.state === state);
  }

  /** Pushes aggregates down when asked (a `SELECT … GROUP BY` stand-in) and counts cheaply. */
  @Tool({ input: { state: z.enum(["open", "closed"]).optional() } })
  @Paginated("id", { limit: 20 })
  pushed({ state }: { state?: "open" | "closed" }, ctx: ToolContext) {
    const rows = ISSUES.filter((issue) => state === undefined || issue.state === state);
    const aggregate = (ctx as unknown as { aggregate?: { groupBy?: string | string[] } }).aggregate;
    if (aggregate) {
      pushed.push(aggregate);
      const groups = new Map<string, number>();
      for (const row of rows) groups.set(row.state, (groups.get(row.state) ?? 0) + 1);
      return {
        groups: [...groups].map(([value, count]) => ({ key: { state: value }, count })),
        total: rows.length,
      };
    }
    if (ctx.page?.limit === 0) return { items: [], total: rows.length };
    const after = (ctx.page?.after?.id as number | undefined) ?? 0;
    return rows.filter((row) => row.id > after).slice(0, (ctx.page?.limit ?? 20) + 1);
  }

  @Tool()
  @Paginated("seq", { limit: 50, stream: {} })
  log() {
    return LOG;
  }

  @Tool()
  @Ephemeral({ when: "always" })
  document() {
    return [
      { id: 1, title: "short", body: "nothing here" },
      { id: 2, title: "long", body: LONG, comments: [{ text: "a" }, { text: "b NEEDLE c" }] },
    ];
  }
}

@McpModule({ services: [ProbeService] })
class ProbeModule {}

const structured = (result: unknown) =>
  (result as { structuredContent: Record<string, unknown> }).structuredContent;

describe("contract probes: size only, last N, aggregates, long values", () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(ProbeModule, { name: "probe", version: "1.0.0" });
  });
  afterAll(() => client.close());
  const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });

  it("limit 0 answers the total: counted by the framework, or by a handler that reads ctx.page", async () => {
    const counted = structured(await call("issues", { state: "open", limit: 0 }));
    expect(counted.total).toBe(ISSUES.filter((i) => i.state === "open").length);
    const own = structured(await call("pushed", { state: "closed", limit: 0 }));
    expect(own.total).toBe(ISSUES.filter((i) => i.state === "closed").length);
  });

  it("tail: N answers the newest N items, oldest first, with nextSince", async () => {
    const result = await call("log", { tail: 10 });
    expect(result.isError).toBeFalsy();
    const page = structured(result) as { items: Array<{ seq: number }>; nextSince?: unknown };
    expect(page.items.map((item) => item.seq)).toEqual([491, 492, 493, 494, 495, 496, 497, 498, 499, 500]);
    expect(page.nextSince).toBeDefined();
    const refused = await call("log", { tail: 10, since: 5 });
    expect(refused.isError).toBe(true);
  });

  it("aggregate counts per array element, sums, keeps the top groups, and says how many it scanned", async () => {
    const open = ISSUES.filter((i) => i.state === "open");
    const byLabel = structured(await call("issues", { state: "open", aggregate: { groupBy: "labels" } })) as {
      groups: Array<{ key: Record<string, unknown>; count: number }>;
      total: number;
      scanned: number;
    };
    const expected = (label: string) => open.filter((i) => i.labels.includes(label)).length;
    expect(Object.fromEntries(byLabel.groups.map((g) => [g.key.labels, g.count]))).toEqual({
      bug: expected("bug"),
      ui: expected("ui"),
      docs: expected("docs"),
    });
    expect(byLabel.total).toBe(open.length);
    expect(byLabel.scanned).toBe(open.length);

    const sum = structured(await call("issues", { aggregate: { count: true, sum: "points" } })) as {
      groups: Array<{ key: Record<string, unknown>; count: number; sum: number }>;
    };
    expect(sum.groups).toEqual([
      expect.objectContaining({
        key: {},
        count: ISSUES.length,
        sum: ISSUES.reduce((s, i) => s + i.points, 0),
      }),
    ]);

    const top = structured(await call("issues", { aggregate: { groupBy: ["state"], top: 1 } })) as {
      groups: Array<{ key: Record<string, unknown> }>;
    };
    expect(top.groups).toHaveLength(1);
    expect(top.groups[0]?.key).toEqual({ state: "open" });
  });

  it("a handler that answers ctx.aggregate pushes it down, as the client sent it", async () => {
    const result = structured(await call("pushed", { aggregate: { groupBy: "state" } })) as {
      groups: Array<{ key: Record<string, unknown>; count: number }>;
    };
    expect(pushed.at(-1)).toEqual({ groupBy: "state" });
    const walked = structured(await call("issues", { aggregate: { groupBy: "state" } })) as typeof result;
    const sorted = (groups: typeof result.groups) =>
      [...groups].sort((a, b) => String(a.key.state).localeCompare(String(b.key.state)));
    expect(sorted(result.groups).map((g) => [g.key, g.count])).toEqual(
      sorted(walked.groups).map((g) => [g.key, g.count]),
    );
  });

  it("search answers { index, path, offset, text } windows; read_resource reads a long field in windows", async () => {
    const stored = await call("document", {});
    const link = (stored.content as Array<{ type: string; uri?: string }>).find(
      (b) => b.type === "resource_link",
    );
    const uri = link?.uri as string;
    const found = structured(await call("search_resource", { uri, pattern: "NEEDLE" })) as {
      matches: Array<{ index?: number; path?: string; offset: number; text: string }>;
    };
    const body = found.matches.find((m) => m.path === "/body");
    expect(body).toMatchObject({ index: 1, offset: LONG.indexOf("NEEDLE") });
    expect(body?.text).toContain("NEEDLE");
    expect(body?.text.length).toBeLessThanOrEqual(6 + 2 * 80);
    expect(found.matches.find((m) => m.path === "/comments/1/text")).toMatchObject({ index: 1, offset: 2 });

    let text = "";
    let offset: number | null = 0;
    let totalChars = 0;
    for (let calls = 0; offset !== null && calls < 200; calls++) {
      const window = structured(
        await call("read_resource", { uri, index: 1, path: "/body", offset, limit: 20_000 }),
      ) as {
        text: string;
        offset: number;
        nextOffset: number | null;
        totalChars: number;
      };
      expect(window.offset).toBe(offset);
      text += window.text;
      totalChars = window.totalChars;
      offset = window.nextOffset;
    }
    expect(totalChars).toBe(LONG.length);
    expect(text).toBe(LONG);
  });
});
