/**
 * `query_resource` end to end through the SDK `Client`: every `where` operator, `select`,
 * `groupBy` over array fields, each aggregate and `top`, `orderBy` both ways with `limit`
 * and cursor paging, partial answers past `maxScanItems`; on MemoryStorage, FileStorage
 * and RedisStorage (a random key prefix, never flushed), and on a declared static resource.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createTestClient,
  Ephemeral,
  FileStorage,
  McpModule,
  McpService,
  MemoryStorage,
  RedisStorage,
  Resource,
  type ResourceStorage,
  STORAGE,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Issue, LABELS, makeIssues } from "../support/query-data.js";
import { deletePrefix, randomPrefix, redisAvailable } from "../support/services.js";

const ISSUES = makeIssues(600);
const PREFIX = randomPrefix("query-resource");
const redisUp = await redisAvailable();
const root = mkdtempSync(join(tmpdir(), "frugal-query-resource-"));

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  if (redisUp) await deletePrefix(PREFIX);
});

@McpService()
class IssuesService {
  @Tool({ description: "Export every issue" })
  @Ephemeral({ when: "always", mimeType: "application/json" })
  exportIssues() {
    return ISSUES;
  }

  @Resource("data://issues", { mimeType: "application/json" })
  issues() {
    return ISSUES;
  }
}

@McpModule({ services: [IssuesService] })
class IssuesModule {}

interface Answer {
  items: Array<Record<string, unknown>>;
  total: number;
  nextCursor?: string;
  hasMore: boolean;
  groups: Array<{
    key: Record<string, unknown>;
    count: number;
    sum?: number;
    min?: unknown;
    max?: unknown;
    avg?: number;
  }>;
  scanned: number;
  partial?: boolean;
  hint?: string;
  count: number;
}

async function query(t: TestClient, args: Record<string, unknown>, name = "query_resource") {
  const result = await t.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text?: string }>)[0]?.text ?? "";
  if (result.isError) throw new Error(`isError: ${text}`);
  return result.structuredContent as unknown as Answer;
}

/** Every page of a query, through its cursors; checks that no item comes twice. */
async function walk(t: TestClient, args: Record<string, unknown>) {
  const items: Array<Record<string, unknown>> = [];
  const totals = new Set<number>();
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await query(t, cursor ? { ...args, cursor } : args);
    items.push(...page.items);
    totals.add(page.total);
    if (!page.hasMore) {
      expect(page.nextCursor).toBeUndefined();
      return { items, totals: [...totals], pages: pages + 1 };
    }
    cursor = page.nextCursor;
  }
  throw new Error("the walk did not end");
}

const ids = (items: Array<Record<string, unknown>>) => items.map((i) => i.id);
const idsOf = (issues: Issue[]) => issues.map((i) => i.id);

/** The query forms, against ground truth computed here, for any URI of the 600 issues. */
function queryForms(context: () => { t: TestClient; uri: string }) {
  const ask = (args: Record<string, unknown>) => query(context().t, { uri: context().uri, ...args });
  const totalOf = async (where: Record<string, unknown>) => (await ask({ where, limit: 1 })).total;

  it("filters with each where operator on dotted paths and array fields", async () => {
    const cases: Array<[Record<string, unknown>, (i: Issue) => boolean]> = [
      [{ state: "open" }, (i) => i.state === "open"],
      [{ state: { $eq: "closed" } }, (i) => i.state === "closed"],
      [{ state: { $ne: "open" } }, (i) => i.state !== "open"],
      [{ comments: { $gt: 15 } }, (i) => i.comments > 15],
      [{ comments: { $gte: 15 } }, (i) => i.comments >= 15],
      [{ comments: { $lt: 3 } }, (i) => i.comments < 3],
      [{ comments: { $lte: 3, $gt: 1 } }, (i) => i.comments <= 3 && i.comments > 1],
      [{ createdAt: { $gte: "2026-07-01" } }, (i) => i.createdAt >= "2026-07-01"],
      [{ labels: "bug" }, (i) => i.labels.includes("bug")],
      [
        { labels: { $in: ["docs", "security"] } },
        (i) => i.labels.some((l) => l === "docs" || l === "security"),
      ],
      [{ labels: { $nin: ["bug", "ui"] } }, (i) => !i.labels.some((l) => l === "bug" || l === "ui")],
      [{ "author.login": { $in: ["user1", "user2"] } }, (i) => ["user1", "user2"].includes(i.author.login)],
      [{ "author.team": { $exists: true } }, (i) => i.author.team !== undefined],
      [{ points: { $exists: false } }, (i) => i.points === undefined],
      [{ title: { $regex: "timeout" } }, (i) => /timeout/.test(i.title)],
      [{ title: { $regex: "^timeout", $options: "i" } }, (i) => /^timeout/i.test(i.title)],
      [{ title: { $not: { $regex: "^t", $options: "i" } } }, (i) => !/^t/i.test(i.title)],
      [
        { $and: [{ state: "open" }, { comments: { $gte: 10 } }] },
        (i) => i.state === "open" && i.comments >= 10,
      ],
      [
        { $or: [{ labels: "perf" }, { points: { $gte: 12 } }] },
        (i) => i.labels.includes("perf") || (i.points ?? 0) >= 12,
      ],
      [{ $not: { state: "open" } }, (i) => i.state !== "open"],
      [{ labels: { $not: { $in: ["bug"] } } }, (i) => !i.labels.includes("bug")],
      [{ "labels.0": "ui" }, (i) => i.labels[0] === "ui"],
    ];
    for (const [where, truth] of cases) {
      const expected = ISSUES.filter(truth).length;
      expect(expected, JSON.stringify(where)).toBeGreaterThan(0);
      expect(await totalOf(where), JSON.stringify(where)).toBe(expected);
    }
  });

  it("answers the first matches in resource order, with select projecting nested fields", async () => {
    const answer = await ask({ where: { state: "closed" }, select: ["id", "author.login"], limit: 5 });
    const closed = ISSUES.filter((i) => i.state === "closed");
    expect(answer.items).toEqual(
      closed.slice(0, 5).map((i) => ({ id: i.id, author: { login: i.author.login } })),
    );
    expect(answer.total).toBe(closed.length);
    expect(answer.hasMore).toBe(true);
    expect(answer.nextCursor).toEqual(expect.any(String));
  });

  it("pages through every match with cursors, in order, each once", async () => {
    const { items, totals, pages } = await walk(context().t, {
      uri: context().uri,
      where: { labels: "bug" },
      select: ["id"],
      limit: 40,
    });
    const bugs = ISSUES.filter((i) => i.labels.includes("bug"));
    expect(ids(items)).toEqual(idsOf(bugs));
    expect(totals).toEqual([bugs.length]);
    expect(pages).toBe(Math.ceil(bugs.length / 40));
  });

  it("orders ascending and descending with limit and cursor paging (ties by position)", async () => {
    for (const direction of [1, -1] as const) {
      const { items, totals } = await walk(context().t, {
        uri: context().uri,
        where: { state: "open" },
        orderBy: { comments: direction, createdAt: -1 },
        select: ["id", "comments"],
        limit: 33,
      });
      const open = ISSUES.map((issue, position) => ({ issue, position })).filter(
        ({ issue }) => issue.state === "open",
      );
      open.sort(
        (a, b) =>
          (a.issue.comments - b.issue.comments) * direction ||
          (a.issue.createdAt < b.issue.createdAt ? 1 : a.issue.createdAt > b.issue.createdAt ? -1 : 0) ||
          a.position - b.position,
      );
      expect(ids(items)).toEqual(open.map(({ issue }) => issue.id));
      expect(totals).toEqual([open.length]);
    }
  });

  it("orders by a missing field first (MongoDB's order: null before numbers)", async () => {
    const answer = await ask({ orderBy: { points: 1 }, select: ["id", "points"], limit: 3 });
    expect(answer.items.every((i) => i.points === undefined)).toBe(true);
    const last = await ask({ orderBy: { points: -1 }, select: ["points"], limit: 1 });
    expect(last.items[0]?.points).toBe(Math.max(...ISSUES.map((i) => i.points ?? 0)));
  });

  it("groups by an array field, once per element, with a null group for none", async () => {
    const answer = await ask({ where: { state: "open" }, groupBy: "labels" });
    const open = ISSUES.filter((i) => i.state === "open");
    const expected = new Map<unknown, number>();
    for (const issue of open) {
      for (const label of issue.labels.length === 0 ? [null] : issue.labels)
        expected.set(label, (expected.get(label) ?? 0) + 1);
    }
    expect(answer.total).toBe(open.length);
    expect(answer.scanned).toBe(ISSUES.length);
    expect(answer.partial).toBeUndefined();
    expect(new Map(answer.groups.map((g) => [g.key.labels, g.count]))).toEqual(expected);
    const counts = answer.groups.map((g) => g.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("answers each aggregate: count, sum, min, max, avg per group, by two fields, top N", async () => {
    const all = await ask({ aggregate: { count: true } });
    expect(all.groups).toEqual([{ key: {}, count: ISSUES.length }]);
    expect(all.total).toBe(ISSUES.length);

    const byState = await ask({
      aggregate: { groupBy: "state", sum: "comments", min: "createdAt", max: "points", avg: "points" },
    });
    for (const state of ["open", "closed"] as const) {
      const these = ISSUES.filter((i) => i.state === state);
      const points = these.flatMap((i) => (i.points === undefined ? [] : [i.points]));
      const group = byState.groups.find((g) => g.key.state === state);
      expect(group).toEqual({
        key: { state },
        count: these.length,
        sum: these.reduce((s, i) => s + i.comments, 0),
        min: these.map((i) => i.createdAt).sort()[0],
        max: Math.max(...points),
        avg: points.reduce((s, p) => s + p, 0) / points.length,
      });
    }

    const pairs = await ask({ groupBy: ["state", "labels"] });
    const expectedPairs = ISSUES.reduce((n, i) => n + Math.max(1, i.labels.length), 0);
    expect(pairs.groups.reduce((n, g) => n + g.count, 0)).toBe(expectedPairs);
    expect(pairs.groups.length).toBe(2 * (LABELS.length + 1));

    const top = await ask({ aggregate: { groupBy: "author.login", top: 3 } });
    expect(top.groups).toHaveLength(3);
    const logins = new Map<string, number>();
    for (const i of ISSUES) logins.set(i.author.login, (logins.get(i.author.login) ?? 0) + 1);
    const largest = [...logins.values()].sort((a, b) => b - a).slice(0, 3);
    expect(top.groups.map((g) => g.count)).toEqual(largest);

    const byKey = await ask({ groupBy: "state", orderBy: { state: 1 } });
    expect(byKey.groups.map((g) => g.key.state)).toEqual(["closed", "open"]);
  });
}

const STORAGES: Array<[string, () => ResourceStorage, boolean]> = [
  ["MemoryStorage", () => new MemoryStorage(), false],
  ["FileStorage", () => new FileStorage({ dir: join(root, "files") }), false],
  ["RedisStorage", () => new RedisStorage({ prefix: `${PREFIX}storage:` }), !redisUp],
];

describe.each(STORAGES)("query_resource over a stored result on %s", (_name, make, skip) => {
  let t: TestClient;
  let uri: string;
  beforeAll(async () => {
    if (skip) return;
    t = await createTestClient(IssuesModule, { providers: [{ provide: STORAGE, useValue: make() }] });
    const exported = await t.callTool({ name: "export_issues", arguments: {} });
    const link = (exported.content as Array<{ type: string; uri?: string }>).find(
      (c) => c.type === "resource_link",
    );
    uri = link?.uri as string;
    expect(uri).toMatch(/^ephemeral:\/\//);
  });
  afterAll(() => t?.close());

  describe.skipIf(skip)("forms", () => {
    queryForms(() => ({ t, uri }));

    it("counts and projects with search_resource", async () => {
      const counted = await query(t, { uri, pattern: "timeout", count: true }, "search_resource");
      expect(counted).toEqual({ count: ISSUES.filter((i) => JSON.stringify(i).includes("timeout")).length });
      const found = (await query(
        t,
        { uri, pattern: "timeout", limit: 3, fields: ["id"] },
        "search_resource",
      )) as unknown as {
        matches: Array<{ item: unknown }>;
      };
      expect(found.matches.map((m) => m.item)).toEqual(
        ISSUES.filter((i) => JSON.stringify(i).includes("timeout"))
          .slice(0, 3)
          .map((i) => ({ id: i.id })),
      );
    });
  });
});

describe("query_resource over a declared static resource", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(IssuesModule, { ephemeral: { tools: true } });
  });
  afterAll(() => t.close());
  queryForms(() => ({ t, uri: "data://issues" }));
});

describe("bounded scans", () => {
  let t: TestClient;
  let uri: string;
  beforeAll(async () => {
    t = await createTestClient(IssuesModule, { aggregate: { maxScanItems: 100, maxGroups: 3 } });
    const exported = await t.callTool({ name: "export_issues", arguments: {} });
    uri = (exported.content as Array<{ type: string; uri?: string }>).find((c) => c.type === "resource_link")
      ?.uri as string;
  });
  afterAll(() => t.close());

  it("answers partial: true with scanned and a hint past maxScanItems, never a silent count", async () => {
    const answer = await query(t, { uri, where: { state: "open" }, limit: 5 });
    expect(answer).toMatchObject({ partial: true, scanned: 100, hasMore: true });
    expect(answer.total).toBe(ISSUES.slice(0, 100).filter((i) => i.state === "open").length);
    expect(answer.hint).toMatch(/maxScanItems/);

    const groups = await query(t, { uri, groupBy: "state" });
    expect(groups).toMatchObject({ partial: true, scanned: 100, total: 100 });

    const counted = await query(t, { uri, pattern: "open", count: true }, "search_resource");
    expect(counted).toMatchObject({ partial: true, scanned: 100, nextOffset: 100 });
    expect(counted.hint).toMatch(/offset 100/);
  });

  it("pages on past the bound with the cursor, every match once", async () => {
    const { items } = await walk(t, { uri, where: { comments: { $gte: 18 } }, select: ["id"], limit: 7 });
    expect(ids(items)).toEqual(idsOf(ISSUES.filter((i) => i.comments >= 18)));
    // A later page whose own scan stops at the bound says so, and that total is the first page's.
    const rare = { uri, where: { id: { $in: [1, 450] } }, select: ["id"], limit: 1 };
    const first = await query(t, rare);
    expect(first).toMatchObject({ items: [{ id: 1 }], total: 1, partial: true, hasMore: true });
    const second = await query(t, { ...rare, cursor: first.nextCursor });
    expect(second.items).toEqual([]);
    expect(second.hint).toMatch(
      /This call's scan stopped at 100 items.*total counts only the items the first page scanned/,
    );
    expect(second.total).toBe(1);
    expect(second.partial).toBe(true);
  });

  it("answers partial past maxScanMs too, naming the setting", async () => {
    const timed = await createTestClient(IssuesModule, { aggregate: { maxScanMs: 0 } });
    try {
      const exported = await timed.callTool({ name: "export_issues", arguments: {} });
      const stored = (exported.content as Array<{ type: string; uri?: string }>).find(
        (c) => c.type === "resource_link",
      )?.uri as string;
      const answer = await query(timed, { uri: stored, aggregate: { count: true } });
      expect(answer).toMatchObject({ partial: true, scanned: 1, total: 1 });
      expect(answer.hint).toMatch(/aggregate\.maxScanMs/);
    } finally {
      await timed.close();
    }
  });

  it("keeps the largest groups past maxGroups and says it is partial", async () => {
    const answer = await query(t, { uri, groupBy: "author.login" });
    expect(answer.groups).toHaveLength(3);
    expect(answer.partial).toBe(true);
    expect(answer.hint).toMatch(/maxGroups/);
  });
});
