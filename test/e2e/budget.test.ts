import {
  BpeTokenCounter,
  Budget,
  createTestClient,
  MAX_TOKENS_META,
  McpModule,
  McpService,
  Paginated,
  Resource,
  type TestClient,
  TOKEN_COUNTER,
  type TokenCounter,
  Tool,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { expectPageText } from "../support/lean-text.js";

const counter = new BpeTokenCounter();
const tokensOf = async (text: string) => (await counter.count(text, Number.MAX_SAFE_INTEGER)).tokens;
const ROWS = Array.from({ length: 60 }, (_, i) => ({
  id: i,
  title: `Row ${i}`,
  body: "lorem ipsum ".repeat(5 + (i % 7) * 10),
}));

@Budget(300)
@McpService()
class ReportsService {
  @Tool({ input: { words: z.number().int() } })
  @Budget(100)
  words({ words }: { words: number }) {
    return Array.from({ length: words }, (_, i) => `w${i}`).join(" ");
  }

  @Tool({ input: { words: z.number().int() } })
  classBudget({ words }: { words: number }) {
    return "hello ".repeat(words);
  }

  @Tool({ input: { site: z.string(), limit: z.number().int().optional() } })
  rows(_input: { site: string }) {
    return ROWS;
  }

  @Tool({ output: { id: z.number(), title: z.string(), body: z.string() } })
  @Paginated("id", { limit: 50, maxLimit: 60 })
  @Budget(800)
  pagedRows() {
    return ROWS;
  }

  @Tool()
  @Paginated("id", { limit: 5 })
  @Budget(200)
  withGiant() {
    return [
      { id: 1, body: "small" },
      { id: 2, body: "big ".repeat(1000) },
      { id: 3, body: "small" },
    ];
  }

  @Tool()
  specialTokens() {
    return "text with <|endoftext|> and <|im_start|> inside";
  }

  @Tool({ visibility: ["app"] })
  appOnly() {
    return "x ".repeat(5000);
  }

  @Resource("reports://big")
  bigResource() {
    return "data ".repeat(2000);
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

describe("@Budget", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(ReportsModule, { budget: 5000 });
  });
  afterAll(() => t.close());
  const call = (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
    t.client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) });

  it("passes results just under and at the budget, refuses one over it with the contract's error", async () => {
    // "w0 w1 …": find word counts that land under, at and over 100 tokens.
    let at = 0;
    for (let n = 1; n < 200; n++) {
      const tokens = await tokensOf(Array.from({ length: n }, (_, i) => `w${i}`).join(" "));
      if (tokens === 100) at = n;
      if (tokens > 100) break;
    }
    expect(at).toBeGreaterThan(0);
    expect((await call("words", { words: at - 1 })).isError).toBeFalsy();
    expect((await call("words", { words: at })).isError).toBeFalsy();
    const over = await call("words", { words: at + 5 });
    expect(over.isError).toBe(true);
    expect(over.structuredContent).toMatchObject({
      error: "OUTPUT_BUDGET_EXCEEDED",
      tool: "words",
      budget: 100,
    });
    expect((over.structuredContent as { tokens: number }).tokens).toBeGreaterThan(100);
    expect(over.content).toEqual([{ type: "text", text: JSON.stringify(over.structuredContent) }]);
  });

  it("uses the class budget when the method has none, and names inputs to narrow", async () => {
    expect((await call("class_budget", { words: 100 })).isError).toBeFalsy();
    const over = await call("class_budget", { words: 1000 });
    expect(over.structuredContent).toMatchObject({ error: "OUTPUT_BUDGET_EXCEEDED", budget: 300 });
    const rows = await call("rows", { site: "a" });
    expect((rows.structuredContent as { hint: string }).hint).toContain("`limit`");
    expect((rows.structuredContent as { hint: string }).hint).toContain("`site`");
  });

  it("lets a client lower the budget for one call, never raise it", async () => {
    expect(
      (await call("class_budget", { words: 100 }, { [MAX_TOKENS_META]: 50 })).structuredContent,
    ).toMatchObject({
      budget: 50,
    });
    expect(
      (await call("class_budget", { words: 1000 }, { [MAX_TOKENS_META]: 100_000 })).structuredContent,
    ).toMatchObject({
      budget: 300,
    });
  });

  it("shrinks a page to the largest prefix that fits, and a full walk returns every item once", async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const result = await call("paged_rows", cursor ? { cursor } : {});
      expect(result.isError).toBeFalsy();
      const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
      expect(await tokensOf(text)).toBeLessThanOrEqual(800);
      const page = result.structuredContent as {
        items: Array<{ id: number }>;
        nextCursor: string | null;
        count: number;
      };
      expect(expectPageText(result)).toEqual(page);
      expect(page.count).toBeGreaterThan(0);
      seen.push(...page.items.map((i) => i.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(ROWS.map((r) => r.id));
  });

  it("keeps structured output valid against the advertised outputSchema when a page shrinks", async () => {
    const { tools } = await t.client.listTools();
    expect(tools.find((tool) => tool.name === "paged_rows")?.outputSchema).toBeDefined();
    // The SDK client validates structuredContent against outputSchema on every call.
    const result = await call("paged_rows");
    expect((result.structuredContent as { count: number }).count).toBeLessThan(50);
  });

  it("reports an item alone over the budget with a nextCursor that skips it", async () => {
    const first = await call("with_giant");
    const page = first.structuredContent as { items: Array<{ id: number }>; nextCursor: string };
    expect(page.items.map((i) => i.id)).toEqual([1]);
    const second = (await call("with_giant", { cursor: page.nextCursor })).structuredContent as {
      items: unknown[];
      nextCursor: string;
      skipped: Array<{ tokens: number; budget: number }>;
    };
    expect(second.items).toEqual([]);
    expect(second.skipped[0]).toMatchObject({ position: 0, budget: 200 });
    const third = (await call("with_giant", { cursor: second.nextCursor })).structuredContent as {
      items: Array<{ id: number }>;
    };
    expect(third.items.map((i) => i.id)).toEqual([3]);
  });

  it("counts special-token text as plain text", async () => {
    expect((await call("special_tokens")).isError).toBeFalsy();
  });

  it("does not budget app-only tools, and records tokens per tool", async () => {
    expect((await call("app_only")).isError).toBeFalsy();
    expect(t.app.stats().tokens.words?.calls).toBeGreaterThan(0);
    expect(t.app.stats().tokens.app_only).toBeUndefined();
  });

  it("answers a resource over budget (the class's here) with -32602 and the object in data", async () => {
    await expect(t.client.readResource({ uri: "reports://big" })).rejects.toMatchObject({
      code: -32602,
      data: { error: "OUTPUT_BUDGET_EXCEEDED", tool: "reports://big", budget: 300 },
    });
  });

  it("uses a custom counter swapped in through DI", async () => {
    const charsPerToken: TokenCounter = {
      count: (text, limit) => {
        const tokens = Math.ceil(text.length / 2);
        return { tokens: Math.min(tokens, limit + 1), exact: tokens <= limit };
      },
    };
    const custom = await createTestClient(ReportsModule, {
      providers: [{ provide: TOKEN_COUNTER, useValue: charsPerToken }],
    });
    const result = await custom.client.callTool({ name: "words", arguments: { words: 100 } });
    // It does not say where it stopped: the whole is estimated at characters / 4, never below what was counted.
    expect(result.structuredContent).toMatchObject({
      error: "OUTPUT_BUDGET_EXCEEDED",
      budget: 100,
      tokens: 101,
      estimated: true,
    });
    await custom.close();
  });
});

describe("the app-wide budget", () => {
  it("applies to methods and classes without @Budget, and @Budget overrides it", async () => {
    @McpService()
    class Plain {
      @Tool()
      long() {
        return "token ".repeat(400);
      }
      @Tool()
      @Budget(10_000)
      generous() {
        return "token ".repeat(400);
      }
    }
    @McpModule({ services: [Plain] })
    class PlainModule {}
    const t = await createTestClient(PlainModule, { budget: 100 });
    expect((await t.callTool({ name: "long", arguments: {} })).structuredContent).toMatchObject({
      error: "OUTPUT_BUDGET_EXCEEDED",
      budget: 100,
    });
    expect((await t.callTool({ name: "generous", arguments: {} })).isError).toBeFalsy();
    await t.close();
  });
});

describe("the size reported over budget", () => {
  // About 40,000 tokens of JSON (an array of objects, as a tool's JSON text) and of prose.
  const articles = Array.from({ length: 830 }, (_, i) => ({
    id: i,
    slug: `post-${i}`,
    title: `Article number ${i} about keyset pagination`,
    updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    tags: ["mcp", i % 2 ? "cache" : "budget"],
  }));
  const words = "the model reads every token a server returns so budgets matter more than bytes".split(" ");
  const essay = Array.from({ length: 3100 }, (_, i) => {
    const sentence = Array.from(
      { length: 6 + ((i * 7) % 13) },
      (_, j) => words[(i * 31 + j * 17) % words.length],
    );
    return `${sentence.join(" ")}.${i % 5 === 4 ? "\n\n" : " "}`;
  }).join("");
  // About 2,500 tokens: short enough to be counted to the end.
  const note = essay.slice(0, 11_000);

  @McpService()
  class ArchiveService {
    @Tool({ input: { query: z.string() } })
    @Budget(2000)
    searchArticles(_input: { query: string }) {
      return articles;
    }

    @Tool({ input: { query: z.string() } })
    allArticles(_input: { query: string }) {
      return articles;
    }

    // The same two as minified JSON text.
    @Tool({ input: { query: z.string() }, text: "json" })
    @Budget(2000)
    searchArticlesJson(_input: { query: string }) {
      return articles;
    }

    @Tool({ input: { query: z.string() }, text: "json" })
    allArticlesJson(_input: { query: string }) {
      return articles;
    }

    @Tool()
    @Budget(2000)
    essay() {
      return essay;
    }

    @Tool()
    @Budget(2000)
    note() {
      return note;
    }

    @Resource("archive://essay")
    @Budget(2000)
    essayResource() {
      return essay;
    }
  }

  @McpModule({ services: [ArchiveService] })
  class ArchiveModule {}

  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(ArchiveModule);
  });
  afterAll(() => t.close());

  type Exceeded = {
    error: string;
    tool: string;
    tokens: number;
    budget: number;
    hint: string;
    estimated?: true;
  };
  const exceeded = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await t.client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: "text", text: JSON.stringify(result.structuredContent) }]);
    return result.structuredContent as Exceeded;
  };

  it.each([
    ["JSON", "_json", 35_000],
    ["table", "", 25_000],
  ])(
    "reports a large %s payload's whole size, estimated within 20 %%, and still names the inputs to narrow",
    async (_form, suffix, least) => {
      const whole = await t.client.callTool({ name: `all_articles${suffix}`, arguments: { query: "x" } });
      const real = await tokensOf((whole.content as Array<{ text: string }>)[0].text);
      expect(real).toBeGreaterThan(least);
      const over = await exceeded(`search_articles${suffix}`, { query: "x" });
      expect(over).toMatchObject({
        error: "OUTPUT_BUDGET_EXCEEDED",
        tool: `search_articles${suffix}`,
        estimated: true,
        budget: 2000,
        hint: "Call again with narrower `query` to get a smaller result.",
      });
      expect(Math.abs(over.tokens / real - 1)).toBeLessThan(0.2);
    },
  );

  it("does the same for plain text", async () => {
    const real = await tokensOf(essay);
    expect(real).toBeGreaterThan(35_000);
    const over = await exceeded("essay");
    expect(over).toMatchObject({ estimated: true, budget: 2000 });
    expect(Math.abs(over.tokens / real - 1)).toBeLessThan(0.2);
  });

  it("reports the exact size, without `estimated`, when counting finished", async () => {
    const real = await tokensOf(note);
    expect(real).toBeGreaterThan(2000);
    const over = await exceeded("note");
    expect(over.tokens).toBe(real);
    expect(over).not.toHaveProperty("estimated");
  });

  it("reports the estimate in a resource read's -32602 data", async () => {
    const real = await tokensOf(essay);
    const error = await t.client.readResource({ uri: "archive://essay" }).then(
      () => undefined,
      (thrown: { code: number; data: Exceeded }) => thrown,
    );
    expect(error?.code).toBe(-32602);
    expect(error?.data).toMatchObject({
      error: "OUTPUT_BUDGET_EXCEEDED",
      tool: "archive://essay",
      estimated: true,
      budget: 2000,
    });
    expect(Math.abs((error?.data.tokens ?? 0) / real - 1)).toBeLessThan(0.2);
  });
});
