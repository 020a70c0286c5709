/**
 * `query_resource` and `search_resource`'s count under hostile and mistaken input, end to
 * end through the SDK `Client`: unknown operators (`$where`, `$function`, `$expr`, …),
 * `__proto__` keys anywhere, deep nesting, a catastrophic regular expression, huge `$in`
 * lists, unknown fields, wrong operands, bad cursors, and items over the budget. Each is
 * answered at once with an error naming the bad part (and a valid example), or answered
 * correctly: never a crash, a hang or a polluted prototype.
 */

import fc from "fast-check";
import {
  createTestClient,
  Ephemeral,
  McpModule,
  McpService,
  Resource,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeIssues } from "../support/query-data.js";

const ISSUES = makeIssues(600);
let mutable = ISSUES.slice(0, 50);

@McpService()
class HostileService {
  @Tool({ description: "Export every issue" })
  @Ephemeral({ when: "always", mimeType: "application/json" })
  exportIssues() {
    return ISSUES;
  }

  @Tool({ description: "Strings that make a backtracking (a+)+$ take forever" })
  @Ephemeral({ when: "always", mimeType: "application/json" })
  exportEvil() {
    return Array.from({ length: 200 }, (_, i) => ({ id: i, title: `${"a".repeat(5000)}!` }));
  }

  @Tool({ description: "Large items" })
  @Ephemeral({ when: "always", mimeType: "application/json" })
  exportLarge() {
    return Array.from({ length: 30 }, (_, i) => ({
      id: i,
      body: `word${i} `.repeat(i === 0 ? 20_000 : 400),
    }));
  }

  @Resource("data://mutable", { mimeType: "application/json" })
  mutable() {
    return mutable;
  }

  @Resource("data://notes", { mimeType: "text/plain" })
  notes() {
    return "first line\nsecond line";
  }
}

@McpModule({ services: [HostileService] })
class HostileModule {}

let t: TestClient;
const uris: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestClient(HostileModule);
  for (const name of ["export_issues", "export_evil", "export_large"]) {
    const result = await t.callTool({ name, arguments: {} });
    uris[name] = (result.content as Array<{ type: string; uri?: string }>).find(
      (c) => c.type === "resource_link",
    )?.uri as string;
  }
});
afterAll(() => t.close());

/** Calls with raw JSON, so `__proto__` keys stay own keys as a client would send them. */
async function call(args: Record<string, unknown> | string, name = "query_resource") {
  const parsed = typeof args === "string" ? (JSON.parse(args) as Record<string, unknown>) : args;
  const started = performance.now();
  const result = await t.callTool({ name, arguments: parsed });
  const ms = performance.now() - started;
  const text = (result.content as Array<{ text?: string }>)[0]?.text ?? "";
  return {
    isError: result.isError === true,
    text,
    data: result.structuredContent as Record<string, unknown>,
    ms,
  };
}

async function refused(args: Record<string, unknown> | string, ...expected: RegExp[]) {
  const answer = await call(args);
  expect(answer.isError, answer.text).toBe(true);
  for (const pattern of expected) expect(answer.text).toMatch(pattern);
  return answer;
}

describe("operators outside the contract", () => {
  it("refuses $where, $function, $expr and every other operator, naming it and showing a valid query", async () => {
    const uri = () => uris.export_issues as string;
    await refused(
      { uri: uri(), where: { $where: "while(true){}" } },
      /where\.\$where/,
      /unknown operator "\$where"/,
      /Example of a valid query/,
    );
    await refused({ uri: uri(), where: { title: { $where: "1" } } }, /where\.title\.\$where/);
    await refused({ uri: uri(), where: { $expr: { $gt: ["$comments", 3] } } }, /unknown operator "\$expr"/);
    await refused(
      {
        uri: uri(),
        where: { title: { $function: { body: "function(){return true}", args: [], lang: "js" } } },
      },
      /where\.title\.\$function/,
    );
    await refused({ uri: uri(), where: { $nor: [{ state: "open" }] } }, /"\$nor"/);
    await refused({ uri: uri(), where: { labels: { $elemMatch: { $eq: "bug" } } } }, /"\$elemMatch"/);
    await refused({ uri: uri(), where: { labels: { $size: 2 } } }, /"\$size"/);
    await refused({ uri: uri(), where: { $frugalRegex: 0 } }, /"\$frugalRegex"/);
    await refused(
      { uri: uri(), where: { $and: [{ state: { $jsonSchema: {} } }] } },
      /where\.\$and\.0\.state\.\$jsonSchema/,
    );
  });

  it("refuses operands of the wrong kind, naming the part", async () => {
    const uri = uris.export_issues as string;
    await refused(
      { uri, where: { comments: { $gt: { $gt: 1 } } } },
      /where\.comments\.\$gt/,
      /number or a string/,
    );
    await refused({ uri, where: { labels: { $in: "bug" } } }, /where\.labels\.\$in/, /array/);
    await refused({ uri, where: { points: { $exists: "yes" } } }, /true or false/);
    await refused({ uri, where: { title: { $regex: "x", $options: "g" } } }, /\$options/);
    await refused({ uri, where: { title: { $options: "i" } } }, /\$options goes with \$regex/);
    await refused({ uri, where: { title: { $regex: "(?<=a)b" } } }, /where\.title\.\$regex/, /RE2/);
    await refused({ uri, where: { comments: { $gt: 1, a: 2 } } }, /mixes operators/);
    await refused({ uri, where: { $or: [] } }, /non-empty array/);
    await refused({ uri, orderBy: { comments: 2 } }, /orderBy\.comments/, /1 \(ascending\) or -1/);
    await refused({ uri, groupBy: "state", select: ["id"] }, /^Bad query at select/);
    await refused({ uri, groupBy: "state", limit: 3 }, /^Bad query at limit/, /aggregate\.top/);
    await refused({ uri, groupBy: "state", orderBy: { comments: 1 } }, /orders groups by count/);
    await refused({ uri, groupBy: "state", aggregate: { groupBy: "labels" } }, /given twice/);
    await refused({ uri, where: { "a..b": 1 } }, /empty segment/);
  });
});

describe("prototype keys", () => {
  it("refuses __proto__ in where, select, groupBy, orderBy and aggregate, and pollutes nothing", async () => {
    const uri = uris.export_issues as string;
    const raw = (rest: string) => `{"uri":${JSON.stringify(uri)},${rest}}`;
    // The input limits refuse a __proto__ key anywhere in the arguments; the query refuses
    // one in a field path (a string, which they do not look into).
    const protoKey = /`__proto__` \(inside argument `where`\) is not allowed|where\.__proto__/;
    await refused(raw('"where":{"__proto__":{"polluted":1}}'), protoKey);
    await refused(raw('"where":{"author":{"__proto__":{"polluted":1}}}'), /__proto__/);
    await refused(raw('"where":{"state":{"$in":[{"__proto__":{"polluted":1}}]}}'), /__proto__/);
    await refused(
      raw('"where":{"__proto__.polluted":1}'),
      /where\.__proto__\.polluted/,
      /__proto__ is not a field name/,
    );
    // A dotted key inside a value is data compared as it is, never a path walked.
    const literal = await call(raw('"where":{"title":{"$not":{"__proto__.x":1}}},"limit":1'));
    expect(literal.data.total).toBe(600);
    await refused(raw('"where":{"constructor.prototype.polluted":{"$exists":true}}'), /Unknown field/);
    await refused(raw('"select":["__proto__"]'), /select\.0/, /__proto__/);
    await refused(raw('"groupBy":"__proto__"'), /groupBy\.0/);
    await refused(raw('"orderBy":{"__proto__":1}'), /__proto__/);
    await refused(raw('"orderBy":{"a.__proto__":1}'), /orderBy\.a\.__proto__/);
    await refused(raw('"aggregate":{"sum":"__proto__.x"}'), /aggregate\.sum/);
    const search = await call(raw('"pattern":"a","fields":["__proto__"]'), "search_resource");
    expect(search.isError).toBe(true);
    expect(search.text).toMatch(/fields\.0/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("size and nesting", () => {
  it("refuses nesting past its bound with a clear error, and nesting under it works", async () => {
    const uri = uris.export_issues as string;
    let nested: Record<string, unknown> = { state: "open" };
    for (let i = 0; i < 6; i++) nested = { $and: [nested] };
    expect((await call({ uri, where: nested, limit: 1 })).data.total).toBe(
      ISSUES.filter((i) => i.state === "open").length,
    );
    let nots: Record<string, unknown> = { $eq: "open" };
    for (let i = 0; i < 20; i++) nots = { $not: nots };
    await refused({ uri, where: { state: nots } }, /nest at most 12/);
    let deep: Record<string, unknown> = { state: "open" };
    for (let i = 0; i < 40; i++) deep = { $or: [deep] };
    const answer = await refused({ uri, where: deep });
    expect(answer.text).toMatch(/depth|nest/i);
  });

  it("matches a 9,000-value $in through a set, and refuses a larger one by the input limits", async () => {
    const uri = uris.export_issues as string;
    const values = Array.from({ length: 9_000 }, (_, i) => i * 3);
    const answer = await call({ uri, where: { id: { $in: values } }, limit: 1 });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.data.total).toBe(ISSUES.filter((i) => i.id % 3 === 0).length);
    expect(answer.ms).toBeLessThan(2000);
    const huge = await call({ uri, where: { id: { $in: Array.from({ length: 50_000 }, (_, i) => i) } } });
    expect(huge.isError).toBe(true);
    expect(huge.text).toMatch(/more than 10000 values/);
  });

  it("runs a catastrophic regular expression in linear time", async () => {
    const answer = await call({ uri: uris.export_evil, where: { title: { $regex: "(a+)+$" } }, limit: 1 });
    expect(answer.isError, answer.text).toBe(false);
    expect(answer.data.total).toBe(0);
    expect(answer.ms).toBeLessThan(3000);
    const counted = await call(
      { uri: uris.export_evil, pattern: "(a+)+$", regex: true, count: true },
      "search_resource",
    );
    expect(counted.data).toEqual({ count: 0 });
  });
});

describe("unknown fields and resources", () => {
  it("names a field no item has, and lists the fields the items do have", async () => {
    const uri = uris.export_issues as string;
    const answer = await refused(
      { uri, select: ["id", "titel"] },
      /Unknown field "titel" \(select\.1\)/,
      /none of the 600 items/,
    );
    expect(answer.text).toMatch(/Fields of the first item: id, title, state/);
    await refused({ uri, groupBy: "lable" }, /"lable" \(groupBy\.0\)/);
    await refused({ uri, orderBy: { comentz: -1 } }, /"comentz" \(orderBy\.comentz\)/);
    await refused({ uri, aggregate: { sum: "point" } }, /"point" \(aggregate\.sum\)/);
    await refused({ uri, where: { stat: "open" } }, /"stat" \(where\.stat\)/);
    // A where field no item has is fine when it still matches (absence is what it asks).
    const absent = await call({ uri, where: { deletedAt: { $exists: false } }, limit: 1 });
    expect(absent.data.total).toBe(600);
  });

  it("answers unknown URIs, text resources and other owners' resources with errors that say what to do", async () => {
    await refused({ uri: "ephemeral://export_issues/nope" }, /Unknown resource/);
    await refused({ uri: "data://notes" }, /reads JSON arrays/, /search_resource/);
    const other = await createTestClient(HostileModule);
    try {
      const answer = await other.callTool({ name: "query_resource", arguments: { uri: uris.export_issues } });
      expect(answer.isError).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe("cursors", () => {
  it("refuses a tampered cursor, a cursor of another query, and one of a resource that changed", async () => {
    const uri = uris.export_issues as string;
    const first = await call({ uri, where: { state: "open" }, select: ["id"], limit: 5 });
    const cursor = first.data.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith("AA") ? "BB" : "AA"}`;
    await refused({ uri, where: { state: "open" }, cursor: tampered }, /Invalid cursor/, /without `cursor`/);
    await refused({ uri, where: { state: "closed" }, cursor }, /Invalid cursor/);
    // The same query with another select or limit goes on.
    const next = await call({ uri, where: { state: "open" }, select: ["id", "state"], limit: 2, cursor });
    expect(next.isError, next.text).toBe(false);

    const page = await call({ uri: "data://mutable", orderBy: { id: -1 }, select: ["id"], limit: 5 });
    mutable = [...mutable, ...ISSUES.slice(100, 101)];
    await refused(
      { uri: "data://mutable", orderBy: { id: -1 }, select: ["id"], limit: 5, cursor: page.data.nextCursor },
      /changed since the cursor was issued/,
    );
  });
});

describe("budget", () => {
  it("holds a page to the token budget, and skips an item over it alone with a cursor past it", async () => {
    const uri = uris.export_large as string;
    const first = await call({ uri, limit: 30 });
    expect(first.isError, first.text).toBe(false);
    expect(first.data.items).toEqual([]);
    expect(first.data.skipped).toMatchObject({ position: 0 });
    const rest = await call({ uri, limit: 30, cursor: first.data.nextCursor });
    const items = rest.data.items as Array<{ id: number }>;
    expect(items[0]?.id).toBe(1);
    expect(items.length).toBeLessThan(29);
    expect(rest.data.hasMore).toBe(true);
    const after = await call({ uri, limit: 30, cursor: rest.data.nextCursor });
    expect((after.data.items as Array<{ id: number }>)[0]?.id).toBe((items.at(-1)?.id ?? 0) + 1);
  });
});

describe("random queries (fast-check, fixed seed)", () => {
  it("answers every random query with a result or an error naming its part, never a protocol error or a hang", async () => {
    const key = fc.oneof(
      fc.constantFrom(
        "state",
        "comments",
        "labels",
        "author.login",
        "title",
        "points",
        "$and",
        "$or",
        "$not",
        "$in",
        "$nin",
        "$eq",
        "$ne",
        "$gt",
        "$lte",
        "$regex",
        "$options",
        "$exists",
        "$where",
        "$expr",
        "$nor",
        "constructor",
        "toString",
        "a..b",
        "labels.0",
        "",
      ),
      fc.string({ maxLength: 6 }).filter((k) => k !== "__proto__"),
    );
    const leaf = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom("open", "bug", "(a+)+$", "^t", 3, -1, 1, "i", true),
    );
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.dictionary(key, tie("tree"), { maxKeys: 4, noNullPrototype: true }),
        fc.array(tie("tree"), { maxLength: 3 }),
      ),
    }));
    const fields = fc.oneof(key, fc.array(key, { maxLength: 3 }), leaf);
    const query = fc.record(
      {
        where: tree,
        select: fields,
        groupBy: fields,
        orderBy: fc.oneof(fc.dictionary(key, fc.oneof(fc.constantFrom(1, -1), leaf), { maxKeys: 3 }), leaf),
        aggregate: fc.oneof(
          fc.record(
            { count: leaf, groupBy: fields, sum: key, min: key, max: key, avg: key, top: leaf },
            { requiredKeys: [] },
          ),
          leaf,
        ),
        limit: fc.oneof(fc.integer({ min: -2, max: 2000 }), leaf),
        cursor: fc.oneof(fc.string({ maxLength: 40 }), leaf),
      },
      { requiredKeys: [] },
    );
    // Plausible queries too, so that answers (not only refusals) are fuzzed.
    const plausibleWhere = fc.dictionary(
      fc.constantFrom("state", "comments", "labels", "author.login", "title", "points"),
      fc.oneof(
        fc.constantFrom("open", "bug", "user3", 3, null),
        fc.record({ $gte: fc.integer({ min: 0, max: 20 }) }),
        fc.record({ $in: fc.array(fc.constantFrom("bug", "ui", "open", 4), { maxLength: 3 }) }),
        fc.record({ $regex: fc.constantFrom("t", "^c", "o+", "(a+)+$", "in module [0-9]$") }),
        fc.record({ $exists: fc.boolean() }),
      ),
      { maxKeys: 2 },
    );
    const plausible = fc.oneof(
      fc.record(
        {
          where: plausibleWhere,
          select: fc.constantFrom(["id"], ["id", "title"], ["author.login"]),
          orderBy: fc.constantFrom({ comments: -1 }, { id: 1 }, { points: 1, id: -1 }),
          limit: fc.integer({ min: 1, max: 20 }),
        },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          where: plausibleWhere,
          groupBy: fc.constantFrom("state", "labels", ["state", "labels"], "author.login"),
          aggregate: fc.record(
            { sum: fc.constant("comments"), avg: fc.constant("points"), top: fc.integer({ min: 1, max: 5 }) },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: ["groupBy"] },
      ),
    );
    let answered = 0;
    let refusedCount = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(plausible, query), async (args) => {
        const answer = await call({ uri: uris.export_issues, ...args });
        expect(answer.ms).toBeLessThan(5000);
        if (answer.isError) {
          refusedCount++;
          expect(answer.text).toMatch(
            /^(Bad query at |Invalid arguments for tool|Unknown field|Invalid cursor)/,
          );
        } else {
          answered++;
          expect(answer.data.items ?? answer.data.groups).toBeInstanceOf(Array);
        }
      }),
      { seed: 2525, numRuns: 400 },
    );
    console.log(`[figures] random queries: ${answered} answered, ${refusedCount} refused with a named part`);
    expect(answered).toBeGreaterThan(0);
  }, 120_000);
});
