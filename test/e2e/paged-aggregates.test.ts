/**
 * The `aggregate` input of paged tools through the SDK client: counts, groups (array fields
 * per element), sums, bounds that make an answer partial, push-down, and bad inputs.
 */
import {
  type AggregateAnswer,
  Budget,
  McpModule,
  McpService,
  Paginated,
  readTable,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const LABELS = ["bug", "ui", "docs", "perf"];
const ISSUES = Array.from({ length: 230 }, (_, i) => ({
  id: i + 1,
  state: i % 4 === 0 ? "closed" : "open",
  author: ["ada", "ken", "grace"][i % 3] as string,
  labels: [LABELS[i % 4], ...(i % 5 === 0 ? [LABELS[(i + 1) % 4]] : [])] as string[],
  comments: i % 7,
  createdAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
}));
const filters = { state: z.enum(["open", "closed"]).optional() };
const select = (state?: string) => ISSUES.filter((i) => state === undefined || i.state === state);
const calls = { keyset: 0 };

/** What a `GROUP BY` would answer: the same rules as the framework's tally, written by hand. */
function groupBy(state: string | undefined, request: NonNullable<ToolContext["aggregate"]>): AggregateAnswer {
  const rows = select(state);
  const field = request.groupBy === undefined ? undefined : [request.groupBy].flat()[0];
  const groups = new Map<string, { key: Record<string, unknown>; count: number; sum: number }>();
  for (const row of rows) {
    const values = field === undefined ? [undefined] : [(row as Record<string, unknown>)[field]].flat();
    for (const value of values) {
      const id = JSON.stringify(value ?? null);
      const group = groups.get(id) ?? {
        key: field === undefined ? {} : { [field]: value },
        count: 0,
        sum: 0,
      };
      group.count++;
      if (request.sum) group.sum += Number((row as Record<string, unknown>)[request.sum] ?? 0);
      groups.set(id, group);
    }
  }
  return {
    groups: [...groups.values()].map(({ key, count, sum }) => ({
      key,
      count,
      ...(request.sum ? { sum } : {}),
    })),
    total: rows.length,
  };
}

@McpService()
class IssuesService {
  @Tool({ input: filters, output: { id: z.number(), state: z.string() } })
  @Paginated("id", {
    limit: 10,
    maxLimit: 25,
    fields: ["id", "state", "author", "labels", "comments", "createdAt"],
  })
  keyset({ state }: { state?: string }, ctx: ToolContext) {
    calls.keyset++;
    const after = (ctx.page?.after?.id as number | undefined) ?? 0;
    return select(state)
      .filter((i) => i.id > after)
      .slice(0, (ctx.page?.limit ?? 10) + 1);
  }

  @Tool({ input: filters })
  @Paginated("id", { limit: 10 })
  whole({ state }: { state?: string }) {
    return select(state);
  }

  @Tool({ input: filters })
  @Paginated("id", { limit: 10 })
  pushed({ state }: { state?: string }, ctx: ToolContext) {
    if (ctx.aggregate) return groupBy(state, ctx.aggregate);
    return select(state);
  }

  @Tool({ input: filters })
  @Paginated("id", { limit: 10, maxLimit: 10, aggregate: { maxScanItems: 30, maxGroups: 2 } })
  bounded({ state }: { state?: string }, ctx: ToolContext) {
    const after = (ctx.page?.after?.id as number | undefined) ?? 0;
    return select(state)
      .filter((i) => i.id > after)
      .slice(0, (ctx.page?.limit ?? 10) + 1);
  }

  @Tool({ input: filters })
  @Paginated("id", { limit: 10 })
  @Budget(150)
  small({ state }: { state?: string }) {
    return select(state);
  }

  @Tool()
  @Paginated("id", { limit: 10, aggregate: false })
  plain() {
    return ISSUES;
  }
}

@McpModule({ services: [IssuesService] })
class IssuesModule {}

type Result = Awaited<ReturnType<TestClient["client"]["callTool"]>>;
type Groups = {
  groups: Array<{
    key: Record<string, unknown>;
    count: number;
    sum?: number;
    min?: unknown;
    max?: unknown;
    avg?: number;
  }>;
  total: number;
  scanned: number;
  partial?: boolean;
  hint?: string;
};
const textOf = (result: Result) => (result.content as Array<{ text: string }>).map((b) => b.text).join("\n");

describe("aggregates on paged tools", () => {
  let t: TestClient;
  const call = (name: string, args: Record<string, unknown>) => t.client.callTool({ name, arguments: args });
  const groups = async (name: string, args: Record<string, unknown>) => {
    const result = await call(name, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    return { answer: result.structuredContent as Groups, text: textOf(result) };
  };
  beforeAll(async () => {
    t = await createTestClient(IssuesModule);
  });
  afterAll(() => t.close());

  it("counts every item the other inputs select, walking the handler's pages", async () => {
    calls.keyset = 0;
    const { answer, text } = await groups("keyset", { state: "open", aggregate: { count: true } });
    expect(answer).toEqual({ groups: [{ key: {}, count: 172 }], total: 172, scanned: 172 });
    // 172 items in pages of maxLimit (25): seven calls of the handler.
    expect(calls.keyset).toBe(7);
    expect(text).toBe("count\n172\n\ntotal=172");
  });

  it("groups by an array field, once per element, largest first, and keeps the top N", async () => {
    const open = select("open");
    const expected = LABELS.map((label) => ({
      key: { labels: label },
      count: open.filter((i) => i.labels.includes(label)).length,
    })).sort((a, b) => b.count - a.count || (a.key.labels < b.key.labels ? -1 : 1));
    const { answer, text } = await groups("keyset", { state: "open", aggregate: { groupBy: "labels" } });
    expect(answer.groups).toEqual(expected);
    expect(answer.total).toBe(open.length);
    expect(readTable(text).items).toEqual(expected.map((g) => ({ labels: g.key.labels, count: g.count })));
    const top = await groups("keyset", { state: "open", aggregate: { groupBy: "labels", top: 2 } });
    expect(top.answer.groups).toEqual(expected.slice(0, 2));
    expect(top.answer.partial).toBeUndefined();
  });

  it("sums, takes the least, the greatest and the mean per group of several fields", async () => {
    const { answer } = await groups("whole", {
      aggregate: {
        groupBy: ["state", "author"],
        sum: "comments",
        min: "createdAt",
        max: "comments",
        avg: "comments",
      },
    });
    const rows = ISSUES.filter((i) => i.state === "open" && i.author === "ada");
    const group = answer.groups.find((g) => g.key.state === "open" && g.key.author === "ada");
    const sum = rows.reduce((s, i) => s + i.comments, 0);
    expect(group).toEqual({
      key: { state: "open", author: "ada" },
      count: rows.length,
      sum,
      min: rows[0]?.createdAt,
      max: 6,
      avg: sum / rows.length,
    });
    expect(answer.groups).toHaveLength(6);
  });

  it("takes a pushed-down answer as it is, and it matches the framework's walk", async () => {
    for (const aggregate of [
      { count: true },
      { groupBy: "labels" },
      { groupBy: "author", sum: "comments" },
    ]) {
      const walked = await groups("whole", { state: "open", aggregate });
      const pushed = await groups("pushed", { state: "open", aggregate });
      expect(pushed.answer).toEqual(walked.answer);
      expect(pushed.text).toBe(walked.text);
    }
  });

  it("stops at maxScanItems and keeps the largest of maxGroups, saying it is partial and what narrows it", async () => {
    const count = await groups("bounded", { aggregate: { count: true } });
    expect(count.answer).toMatchObject({
      groups: [{ key: {}, count: 30 }],
      total: 30,
      scanned: 30,
      partial: true,
    });
    expect(count.answer.hint).toMatch(/at 30 items \(aggregate.maxScanItems\).*Narrow it with `state`/);
    expect(count.text).toMatch(/partial=true/);
    const many = await groups("bounded", { state: "open", aggregate: { groupBy: "author" } });
    expect(many.answer.groups).toHaveLength(2);
    expect(many.answer.partial).toBe(true);
  });

  it("keeps the largest groups the token budget holds, and says how to ask for fewer", async () => {
    const { answer, text } = await groups("small", { aggregate: { groupBy: "id" } });
    expect(answer.groups.length).toBeGreaterThan(5);
    expect(answer.groups.length).toBeLessThan(230);
    expect(answer).toMatchObject({ total: 230, scanned: 230, partial: true });
    expect(answer.hint).toMatch(/^\d+ of 230 groups fit the token budget: ask for fewer with aggregate.top/);
    expect(text).toMatch(/partial=true/);
  });

  it("refuses bad aggregates with an error naming the part and an example", async () => {
    const bad = async (name: string, aggregate: unknown, message: RegExp) => {
      const result = await call(name, { aggregate });
      expect(result.isError, textOf(result)).toBe(true);
      expect(textOf(result)).toMatch(message);
    };
    await bad("keyset", { groupBy: 5 }, /groupBy/);
    await bad("keyset", { groupBy: "labels", top: 0 }, /top/);
    await bad("keyset", { groupBy: "labels", extra: 1 }, /extra|unrecognized/i);
    await bad(
      "keyset",
      { groupBy: "title" },
      /Bad aggregate at groupBy: "title" is not a field of these items\. Fields: id, state/,
    );
    await bad("whole", { sum: "points" }, /Unknown field "points" \(sum\): none of the 230 items has it/);
    await bad("whole", { groupBy: "__proto__" }, /__proto__ is not a field name/);
    const withCursor = await call("keyset", { aggregate: { count: true }, cursor: "abc" });
    expect(textOf(withCursor)).toMatch(/aggregate counts every item .* does not go with cursor/);
  });

  it("is left out where @Paginated says aggregate: false, and its declared output allows the answer", async () => {
    const { tools } = await t.client.listTools();
    const inputs = (name: string) =>
      Object.keys(tools.find((tool) => tool.name === name)?.inputSchema.properties ?? {});
    expect(inputs("keyset")).toContain("aggregate");
    expect(inputs("plain")).not.toContain("aggregate");
    const refused = await call("plain", { aggregate: { count: true } });
    expect(refused.isError).toBe(true);
  });
});
