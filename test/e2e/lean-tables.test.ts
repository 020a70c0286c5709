/**
 * Lean answers, tables: the text a model reads of a page (and of an array of uniform
 * objects) is a table whenever that counts fewer tokens than the JSON; the envelope's
 * non-empty fields follow on their own line; `text: "json"` keeps JSON at each level;
 * `line` writes log lines; the budget counts the table. End to end through the SDK client.
 */
import {
  BpeTokenCounter,
  Budget,
  FrugalConfigError,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Resource,
  readTable,
  TOKEN_COUNTER,
  type TokenCounter,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectPageText, textOf } from "../support/lean-text.js";

const bpe = new BpeTokenCounter();
const tokensOf = async (text: string) => (await bpe.count(text, Number.MAX_SAFE_INTEGER)).tokens;

const ISSUES = Array.from({ length: 45 }, (_, i) => ({
  number: 4200 - i,
  title: `${["Fix", "Add", "Drop", "Speed up"][i % 4]} the ${["cache", "cursor", "budget", "stream"][i % 3]} of ${["tools", "pages", "logs"][i % 3]}${i % 5 === 0 ? ", again" : ""}`,
  state: i % 4 === 0 ? "closed" : "open",
}));

/** Values a naive table would garble: delimiters, quotes, line breaks, look-alikes, JSON, dates, bigints. */
const TRICKY = [
  {
    id: 1,
    text: "tab\there",
    when: new Date(Date.UTC(2026, 0, 2)),
    big: 12n,
    tags: ["a", "b"],
    meta: { k: 1 },
  },
  { id: 2, text: 'a "quote"', when: new Date(Date.UTC(2026, 0, 3)), big: 2n ** 70n, tags: [], meta: {} },
  { id: 3, text: "line\nbreak", when: new Date(0), big: -1n, tags: ["x\ty"], meta: { n: null } },
  { id: 4, text: "null", when: new Date(1), big: 0n, tags: ["[1]"], meta: { s: "{}" } },
  { id: 5, text: "123", when: new Date(2), big: 1n, tags: [1, true, null], meta: { d: 1.5 } },
  { id: 6, text: "", when: new Date(3), big: 3n, tags: ['q"x'], meta: { e: "" } },
  { id: 7, text: "[WARN] {disk} full", when: new Date(4), big: 4n, tags: ["é", "🎉"], meta: { u: "中文" } },
];

const LOGS = Array.from({ length: 12 }, (_, i) => ({
  seq: i + 1,
  at: new Date(Date.UTC(2026, 2, 1, 12, 0, i)).toISOString(),
  level: i % 4 === 3 ? "ERROR" : "INFO",
  message: i === 5 ? "stack:\n  at main" : `request ${i + 1} served in ${10 + i} ms`,
}));

/** Rows after the cursor's key, `limit + 1` of them: a keyset query. */
function after<T extends Record<string, unknown>>(rows: readonly T[], key: keyof T, ctx: ToolContext): T[] {
  const last = ctx.page?.after?.[key as string];
  const start = last === undefined ? 0 : rows.findIndex((row) => row[key] === last) + 1;
  return rows.slice(start, start + (ctx.page?.limit ?? 20) + 1);
}

@McpService()
class LeanService {
  @Tool({ description: "Issues, newest first" })
  @Paginated("number", { limit: 20, order: "desc" })
  issues(_input: unknown, ctx: ToolContext) {
    return after(ISSUES, "number", ctx);
  }

  @Tool({ description: "Issues, with their total" })
  @Paginated("number", { limit: 20, order: "desc" })
  counted(_input: unknown, ctx: ToolContext) {
    return { items: after(ISSUES, "number", ctx), total: ISSUES.length };
  }

  @Tool({ description: "Issues as JSON text", text: "json" })
  @Paginated("number", { limit: 20, order: "desc" })
  issuesJson(_input: unknown, ctx: ToolContext) {
    return after(ISSUES, "number", ctx);
  }

  @Tool({ description: "Issues as JSON text, said on @Paginated" })
  @Paginated("number", { limit: 20, order: "desc", text: "json" })
  issuesJsonPaged(_input: unknown, ctx: ToolContext) {
    return after(ISSUES, "number", ctx);
  }

  @Tool({ description: "Values a naive table garbles" })
  @Paginated("id", { limit: 10 })
  tricky() {
    return TRICKY;
  }

  @Tool({ description: "Log lines" })
  @Paginated("seq", {
    limit: 5,
    fields: ["seq", "message"],
    line: (entry: (typeof LOGS)[number]) => `${entry.at} ${entry.level} ${entry.message}`,
  })
  logs() {
    return LOGS;
  }

  @Tool({ description: "Items of different shapes" })
  @Paginated("id", { limit: 10 })
  mixed() {
    return [{ id: 1, a: "x" }, { id: 2, b: "y" }, { id: 3 }];
  }

  @Tool({ description: "A plain array of uniform rows" })
  rows() {
    return ISSUES.slice(0, 5);
  }

  @Tool({ description: "A plain array of different shapes" })
  shapes() {
    return [{ a: 1 }, { b: 2 }, 3, "four"];
  }

  @Tool({ description: "A plain array as JSON text", text: "json" })
  rowsJson() {
    return ISSUES.slice(0, 5);
  }

  @Tool({ description: "Issues for an app's UI, not the model", visibility: ["app"] })
  @Paginated("number", { limit: 20, order: "desc" })
  issuesForApp(_input: unknown, ctx: ToolContext) {
    return after(ISSUES, "number", ctx);
  }

  @Tool({ description: "An object stays JSON" })
  summary() {
    return { open: 3, closed: 1, newest: ISSUES[0] };
  }

  @Resource("issues://all", { mimeType: "application/json" })
  allIssues() {
    return ISSUES.slice(0, 3);
  }

  @Resource("issues://paged")
  @Paginated("number", { limit: 2, order: "desc" })
  pagedIssues(_input: unknown, ctx: ToolContext) {
    return after(ISSUES, "number", ctx);
  }
}

@McpModule({ services: [LeanService] })
class LeanModule {}

/** The same 45 issues under budgets that fit 20 rows as a table, not as JSON. */
@McpService()
class BudgetedService {
  @Tool({ description: "Issues under a budget" })
  @Paginated("number", { limit: 20, order: "desc" })
  @Budget(300)
  issues(_input: unknown, ctx: ToolContext) {
    return after(ISSUES, "number", ctx);
  }

  @Tool({ description: "The same as JSON text", text: "json" })
  @Paginated("number", { limit: 20, order: "desc" })
  @Budget(300)
  issuesJson(_input: unknown, ctx: ToolContext) {
    return after(ISSUES, "number", ctx);
  }

  @Tool({ description: "A plain array under a budget" })
  @Budget(250)
  rows() {
    return ISSUES.slice(0, 20);
  }

  @Tool({ description: "The same as JSON text", text: "json" })
  @Budget(250)
  rowsJson() {
    return ISSUES.slice(0, 20);
  }

  @Tool({ description: "One item alone over the budget" })
  @Paginated("id", { limit: 5 })
  @Budget(60)
  big() {
    return [
      { id: 1, body: "word ".repeat(200) },
      { id: 2, body: "short" },
    ];
  }
}

@McpModule({ services: [BudgetedService] })
class BudgetedModule {}

type Envelope = {
  items: Array<Record<string, unknown>>;
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
};

describe("lean answers: tables", () => {
  let t: TestClient;
  const call = async (name: string, args: Record<string, unknown> = {}, client = t) => {
    const result = await client.client.callTool({ name, arguments: args });
    expect(result.isError, textOf(result)).toBeFalsy();
    return result;
  };
  beforeAll(async () => {
    t = await createTestClient(LeanModule);
  });
  afterAll(() => t.close());

  it("answers a page as a table, then its envelope's non-empty fields; structuredContent keeps the envelope", async () => {
    const first = await call("issues");
    const text = textOf(first);
    const envelope = first.structuredContent as Envelope;
    expect(envelope).toMatchObject({ count: 20, hasMore: true, nextCursor: expect.any(String) });
    expect(envelope.items[0]).toEqual(ISSUES[0]);
    const [table, line] = text.split("\n\n");
    expect(table?.split("\n")).toEqual([
      "number\ttitle\tstate",
      ...ISSUES.slice(0, 20).map(({ number, title, state }) => `${number}\t${title}\t${state}`),
    ]);
    expect(line).toBe(`nextCursor=${envelope.nextCursor} hasMore=true`);
    expectPageText(first);

    // The last page: nothing to say after the items (hasMore false, nextCursor null, left out).
    const second = await call("issues", { cursor: envelope.nextCursor });
    const third = await call("issues", { cursor: (second.structuredContent as Envelope).nextCursor });
    expect(third.structuredContent).toMatchObject({ count: 5, hasMore: false, nextCursor: null });
    expect(textOf(third)).toBe(
      ["number\ttitle\tstate", ...ISSUES.slice(40).map((i) => `${i.number}\t${i.title}\t${i.state}`)].join(
        "\n",
      ),
    );
    expectPageText(third);
  });

  it("costs within 1.1× of the same rows as CSV, and far less than the JSON it replaces", async () => {
    const rows = ISSUES.slice(0, 20);
    const csv = [
      "number,title,state",
      ...rows.map((r) => `${r.number},${r.title.includes(",") ? `"${r.title}"` : r.title},${r.state}`),
    ].join("\n");
    const page = await call("issues");
    const [table] = textOf(page).split("\n\n");
    const tableTokens = await tokensOf(table ?? "");
    expect(tableTokens).toBeLessThanOrEqual((await tokensOf(csv)) * 1.1);
    const json = await call("issues_json");
    expect(await tokensOf(textOf(page))).toBeLessThan((await tokensOf(textOf(json))) * 0.85);
  });

  it("says total (and every other non-empty envelope field) on the envelope line", async () => {
    const page = await call("counted");
    expect(textOf(page).split("\n\n")[1]).toMatch(/^nextCursor=\S+ hasMore=true total=45$/);
    expectPageText(page);
  });

  it("reads every value back from the table: tabs, quotes, line breaks, look-alikes, JSON, dates, bigints", async () => {
    const result = await call("tricky");
    const text = textOf(result);
    // One line per item after the header, however the values look.
    expect(text.split("\n")).toHaveLength(TRICKY.length + 1);
    expect(text.split("\n")[0]).toBe("id\ttext\twhen\tbig\ttags\tmeta");
    expect(text.split("\n")[1]).toBe('1\t"tab\\there"\t2026-01-02T00:00:00.000Z\t"12"\t["a","b"]\t{"k":1}');
    const { items } = readTable(text);
    const envelope = result.structuredContent as Envelope;
    expect(items).toEqual(envelope.items);
    // What JSON would have said: dates as ISO strings, bigints as decimal strings.
    expect(envelope.items[1]).toMatchObject({ big: String(2n ** 70n), when: "2026-01-03T00:00:00.000Z" });
  });

  it('keeps minified JSON text with text: "json" on @Tool, on @Paginated, or on the app', async () => {
    for (const name of ["issues_json", "issues_json_paged"]) {
      const result = await call(name);
      expect(textOf(result)).toBe(JSON.stringify(result.structuredContent));
    }
    const rows = await call("rows_json");
    expect(textOf(rows)).toBe(JSON.stringify(ISSUES.slice(0, 5)));

    // An app-only tool's text is read by no model: JSON, unless it says otherwise.
    const forApp = await call("issues_for_app");
    expect(textOf(forApp)).toBe(JSON.stringify(forApp.structuredContent));

    const app = await createTestClient(LeanModule, { text: "json" });
    try {
      const page = await call("issues", {}, app);
      expect(textOf(page)).toBe(JSON.stringify(page.structuredContent));
      expect(textOf(await call("rows", {}, app))).toBe(JSON.stringify(ISSUES.slice(0, 5)));
      // A method's `line` is its own choice: it wins over the app's JSON.
      expect(textOf(await call("logs", {}, app))).toMatch(/^2026-03-01T12:00:00.000Z INFO request 1/);
    } finally {
      await app.close();
    }
  });

  it("writes one line per item with `line`, then the envelope line; structuredContent keeps the items", async () => {
    const first = await call("logs", { fields: ["message"] });
    const envelope = first.structuredContent as Envelope;
    expect(envelope.items[0]).toEqual({ message: "request 1 served in 10 ms" });
    const [lines, line] = textOf(first).split("\n\n");
    // The line gets the item as the handler returned it, whatever `fields` selected.
    expect(lines).toBe(
      LOGS.slice(0, 5)
        .map((e) => `${e.at} ${e.level} ${e.message}`)
        .join("\n"),
    );
    expect(line).toBe(`nextCursor=${envelope.nextCursor} hasMore=true`);
    // A line holding a line break is written as a JSON string: one line per item still.
    const second = await call("logs", { cursor: envelope.nextCursor });
    const secondLines = textOf(second).split("\n\n")[0]?.split("\n") ?? [];
    expect(secondLines).toHaveLength(5);
    expect(secondLines[0]).toBe('"2026-03-01T12:00:05.000Z INFO stack:\\n  at main"');
  });

  it("keeps JSON for items that are not uniform objects, in a page and in a plain array", async () => {
    const page = await call("mixed");
    expect(textOf(page)).toBe('[{"id":1,"a":"x"},{"id":2,"b":"y"},{"id":3}]');
    expectPageText(page);
    expect(textOf(await call("shapes"))).toBe('[{"a":1},{"b":2},3,"four"]');
  });

  it("writes a plain array of uniform objects as a table, without structuredContent, and an object as JSON", async () => {
    const rows = await call("rows");
    expect(rows.structuredContent).toBeUndefined();
    expect(readTable(textOf(rows)).items).toEqual(ISSUES.slice(0, 5));
    expect(textOf(rows).split("\n")[0]).toBe("number\ttitle\tstate");
    const summary = await call("summary");
    expect(textOf(summary)).toBe(JSON.stringify(summary.structuredContent));
  });

  it("keeps resource reads in their MIME type and minified JSON", async () => {
    const all = await t.client.readResource({ uri: "issues://all" });
    expect(all.contents[0]).toMatchObject({
      mimeType: "application/json",
      text: JSON.stringify(ISSUES.slice(0, 3)),
    });
    const paged = await t.client.readResource({ uri: "issues://paged" });
    const content = paged.contents[0] as { mimeType: string; text: string };
    expect(content.mimeType).toBe("application/json");
    expect(JSON.parse(content.text)).toMatchObject({ items: ISSUES.slice(0, 2), hasMore: true, count: 2 });
  });
});

describe("lean answers: the counter decides", () => {
  it("never writes a table when the app's counter says JSON costs no more", async () => {
    // A counter to which every tab is dear: JSON is then the cheaper text.
    const tabsAreDear: TokenCounter = {
      count: (text) => ({ tokens: text.length + 100 * (text.split("\t").length - 1), exact: true }),
    };
    const t = await createTestClient(LeanModule, {
      providers: [{ provide: TOKEN_COUNTER, useValue: tabsAreDear }],
    });
    try {
      const page = await t.client.callTool({ name: "issues", arguments: {} });
      const [items, line] = textOf(page).split("\n\n");
      expect(JSON.parse(items ?? "")).toEqual(ISSUES.slice(0, 20));
      expect(line).toMatch(/^nextCursor=\S+ hasMore=true$/);
      expectPageText(page);
      const rows = await t.client.callTool({ name: "rows", arguments: {} });
      expect(textOf(rows)).toBe(JSON.stringify(ISSUES.slice(0, 5)));
    } finally {
      await t.close();
    }
  });
});

describe("lean answers: budgets count the table", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(BudgetedModule);
  });
  afterAll(() => t.close());

  it("fits a page the JSON would not: 20 rows as a table within 300 tokens, fewer as JSON", async () => {
    const table = await t.client.callTool({ name: "issues", arguments: {} });
    expect(table.structuredContent).toMatchObject({ count: 20 });
    expect(await tokensOf(textOf(table))).toBeLessThanOrEqual(300);
    const json = await t.client.callTool({ name: "issues_json", arguments: {} });
    const shrunk = (json.structuredContent as Envelope).count;
    expect(shrunk).toBeGreaterThan(0);
    expect(shrunk).toBeLessThan(20);
    expect(await tokensOf(textOf(json))).toBeLessThanOrEqual(300);
  });

  it("lets a plain array through when its table fits, where its JSON is over the budget", async () => {
    const rows = await t.client.callTool({ name: "rows", arguments: {} });
    expect(rows.isError).toBeFalsy();
    expect(await tokensOf(textOf(rows))).toBeLessThanOrEqual(250);
    expect(readTable(textOf(rows)).items).toEqual(ISSUES.slice(0, 20));
    const json = await t.client.callTool({ name: "rows_json", arguments: {} });
    expect(json.isError).toBe(true);
    expect(json.structuredContent).toMatchObject({ error: "OUTPUT_BUDGET_EXCEEDED", budget: 250 });
  });

  it("says which item was skipped on the envelope line", async () => {
    const skipped = await t.client.callTool({ name: "big", arguments: {} });
    const [items, line] = textOf(skipped).split("\n\n");
    expect(items).toBe("[]");
    expect(line).toMatch(/^nextCursor=\S+ hasMore=true skipped=\[\{"position":0,"tokens":\d+,"budget":60,/);
    expectPageText(skipped);
    const next = await t.client.callTool({
      name: "big",
      arguments: { cursor: (skipped.structuredContent as Envelope).nextCursor },
    });
    expect(textOf(next)).toBe("id\tbody\n2\tshort");
  });
});

describe("lean answers: start-up checks", () => {
  const startup = async (service: new () => unknown, options: Record<string, unknown> = {}) => {
    @McpModule({ services: [service] })
    class M {}
    return McpFactory.create(M, { name: "t", version: "1", ...options }).then(
      async (app) => {
        await app.close();
        return undefined;
      },
      (error: unknown) => error as FrugalConfigError,
    );
  };

  it("refuses contradictory or bad text options, naming the method", async () => {
    @McpService()
    class BadText {
      @Tool({ text: "xml" as never })
      list() {
        return [];
      }
    }
    expect((await startup(BadText))?.message).toBe(
      'BadText.list: @Tool `text` must be "auto", "json" or "compact", not "xml". Fix: use "auto", "json" or "compact".',
    );

    @McpService()
    class Disagree {
      @Tool({ text: "auto" })
      @Paginated("id", { text: "json" })
      list() {
        return [];
      }
    }
    expect((await startup(Disagree))?.message).toBe(
      'Disagree.list: @Tool has `text: "auto"` but @Paginated has `text: "json"`. Fix: set `text` once, on either decorator.',
    );

    @McpService()
    class JsonAndLines {
      @Tool({ text: "json" })
      @Paginated("id", { line: (item: { id: number }) => String(item.id) })
      list() {
        return [];
      }
    }
    expect((await startup(JsonAndLines))?.message).toMatch(
      /^JsonAndLines\.list: @Tool has `text: "json"` but @Paginated has `line`/,
    );

    expect((await startup(LeanService, { text: "yaml" }))?.message).toBe(
      'McpFactory.create options: `text` must be "auto", "json" or "compact", not "yaml". Fix: use "auto", "json" or "compact".',
    );
  });

  it("refuses a bad `line`, and `line` with links, JSON text, or on a resource", async () => {
    @McpService()
    class NotAFunction {
      @Tool()
      @Paginated("id", { line: "{id}" as never })
      list() {
        return [];
      }
    }
    expect((await startup(NotAFunction))?.message).toMatch(
      /^NotAFunction\.list: @Paginated `line` must be a function of an item returning its line of text, not "\{id\}"/,
    );

    @McpService()
    class LinesAndLinks {
      @Tool()
      @Paginated("id", { as: "links", link: () => ({ uri: "x://1", name: "1" }), line: () => "" })
      list() {
        return [];
      }
    }
    expect((await startup(LinesAndLinks))?.message).toMatch(
      /^LinesAndLinks\.list: @Paginated has both `line` and `as: "links"`/,
    );

    @McpService()
    class LinesAndJson {
      @Tool()
      @Paginated("id", { line: () => "", text: "json" })
      list() {
        return [];
      }
    }
    expect((await startup(LinesAndJson))?.message).toMatch(
      /^LinesAndJson\.list: @Paginated has both `line` and `text: "json"`/,
    );

    @McpService()
    class OnResource {
      @Resource("things://all")
      @Paginated("id", { line: () => "" })
      all() {
        return [];
      }
    }
    expect((await startup(OnResource))?.message).toBe(
      "OnResource.all: @Paginated `line` applies to tools only (a resource read answers the envelope as minified JSON). Fix: remove `line`, or make this method a @Tool.",
    );
  });

  it("answers a `line` that returns no string with an error naming the method", async () => {
    @McpService()
    class BadLine {
      @Tool()
      @Paginated("id", { line: (item: { id: number }) => item.id as unknown as string })
      list() {
        return [{ id: 1 }];
      }
    }
    @McpModule({ services: [BadLine] })
    class M {}
    const t = await createTestClient(M);
    try {
      const result = await t.client.callTool({ name: "list", arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("BadLine.list: @Paginated's line(item) must return a string, not 1");
    } finally {
      await t.close();
    }
  });
});
