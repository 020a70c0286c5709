/**
 * What the flagship (examples/app) must do through the real SDK client over Streamable
 * HTTP, on any backend: flagship-app.test.ts runs it on PGlite with everything in memory,
 * and on PostgreSQL with Redis. (Not a *.test.ts file, so vitest runs it only from there.)
 */

import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CACHE, EVENT_BUS, Injectable, McpModule, STORAGE } from "frugal-mcp";
import { createTestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { costOfToolResult } from "../../examples/app/demo/measure.js";
import { ArticlesRepository } from "../../examples/app/src/articles/articles.repository.js";
import { ArticlesService } from "../../examples/app/src/articles/articles.service.js";
import type { AppConfig } from "../../examples/app/src/config/app-config.js";
import { DataDirectory } from "../../examples/app/src/config/data-directory.js";
import { SQL_DATABASE } from "../../examples/app/src/database/sql-database.js";
import { AppLogsRepository } from "../../examples/app/src/logs/app-logs.repository.js";
import { formatLine } from "../../examples/app/src/logs/log-source.js";
import { type RunningServer, startServer } from "../../examples/app/src/server.js";
import { SettingsRepository } from "../../examples/app/src/settings/settings.repository.js";

/** The articles repository with its push-down switched off: every aggregate is the framework's walk of the pages. */
@Injectable()
class WalkOnlyRepository extends ArticlesRepository {
  override async aggregate() {
    return undefined;
  }
}

/** `list_articles` alone, over the same database, answering aggregates by walking its pages. */
@McpModule({
  services: [ArticlesService],
  providers: [{ provide: ArticlesRepository, useClass: WalkOnlyRepository }],
})
class WalkOnlyArticlesModule {}

/** A small data set: big enough to page and spill, small enough to seed in well under a second. */
export const TEST_SEED = { articles: 300, appLogLines: 5_000, accessLogLines: 2_000 };

type Envelope<T = Record<string, unknown>> = {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
  nextSince?: string | number | null;
  until?: string | number | null;
};

/** An SDK client over Streamable HTTP, with a bearer token when given. */
export async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "flagship-test", version: "1.0.0" });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** The classes the configuration should have picked, checked through the app's container. */
export interface ExpectedBackends {
  database: Function;
  cache: Function;
  storage: Function;
  events: Function;
}

/** Registers the shared tests; `config` gives the backend, `cleanUp` runs after the server is closed. */
export function flagshipContract(
  config: () => Promise<AppConfig>,
  backends: ExpectedBackends,
  cleanUp?: () => Promise<void>,
): void {
  let server: RunningServer;
  let reader: Client;
  let admin: Client;

  const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  const ok = async (client: Client, name: string, args: Record<string, unknown> = {}) => {
    const result = await call(client, name, args);
    expect(result.isError, JSON.stringify(result.content).slice(0, 400)).toBeFalsy();
    return result;
  };
  const page = async (name: string, args: Record<string, unknown>) =>
    (await ok(reader, name, args)).structuredContent as Envelope;
  const readText = async (client: Client, uri: string) => {
    const [content] = (await client.readResource({ uri })).contents;
    return JSON.parse((content as { text: string }).text) as Record<string, unknown>;
  };

  beforeAll(async () => {
    server = await startServer(await config(), { port: 0 });
    reader = await connect(server.url);
    admin = await connect(server.url, "demo-admin");
  });
  afterAll(async () => {
    try {
      await reader?.close();
      await admin?.close();
      await server?.close();
    } finally {
      await cleanUp?.();
    }
  });

  it("picks its backends from APP_CONFIG, through the providers", () => {
    expect(server.app.get(SQL_DATABASE)).toBeInstanceOf(backends.database);
    expect(server.app.get(CACHE)).toBeInstanceOf(backends.cache);
    expect(server.app.get(STORAGE)).toBeInstanceOf(backends.storage);
    expect(server.app.get(EVENT_BUS)).toBeInstanceOf(backends.events);
  });

  it("serves every feature's tools; the download tool is app-only", async () => {
    const { tools } = await reader.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "access_search_logs",
        "access_tail_logs",
        "app_search_logs",
        "app_tail_logs",
        "download_file",
        "get_article",
        "list_articles",
        "list_files",
        "query_resource",
        "read_resource",
        "record_metric",
        "search_resource",
        "set_config",
      ].sort(),
    );
    const download = tools.find((t) => t.name === "download_file");
    expect(download?._meta?.ui).toEqual({ visibility: ["app"] });
    const { resources } = await reader.listResources();
    expect(resources.map((r) => r.uri)).toEqual(
      expect.arrayContaining(["config://app", "metrics://summary"]),
    );
  });

  it("pages a site by keyset: every article once, in key order, projected and within the budget", async () => {
    const repo = server.app.get(ArticlesRepository);
    const expected = (await repo.all("tech")).map((a) => a.slug);
    const seen: string[] = [];
    let cursor: string | undefined;
    let calls = 0;
    do {
      const result = await ok(reader, "list_articles", {
        site: "tech",
        limit: 50,
        ...(cursor ? { cursor } : {}),
      });
      // Within the budget exactly: the page is measured with the cursor it then sends.
      expect((await costOfToolResult(result)).tokens).toBeLessThanOrEqual(1_500);
      const envelope = result.structuredContent as Envelope<{ slug: string }>;
      // The default projection: three fields, never the body.
      for (const item of envelope.items)
        expect(Object.keys(item).sort()).toEqual(["slug", "title", "updatedAt"]);
      seen.push(...envelope.items.map((i) => i.slug));
      cursor = envelope.nextCursor ?? undefined;
      calls++;
    } while (cursor);
    expect(seen).toEqual(expected);
    expect(calls).toBeGreaterThan(1);

    // Without `limit`, as a model walks: adaptive pages grow, so the walk takes fewer calls
    // than the pages of 10 a peek gets (and the first page is still 10).
    let adaptiveCalls = 0;
    const walked: string[] = [];
    cursor = undefined;
    do {
      const envelope = await page("list_articles", { site: "tech", ...(cursor ? { cursor } : {}) });
      if (adaptiveCalls === 0) expect(envelope.count).toBe(10);
      walked.push(...envelope.items.map((i) => String(i.slug)));
      cursor = envelope.nextCursor ?? undefined;
      adaptiveCalls++;
    } while (cursor);
    expect(walked).toEqual(expected);
    expect(adaptiveCalls).toBeLessThan(Math.ceil(expected.length / 10));

    const chosen = await page("list_articles", { site: "food", fields: ["slug", "author"], limit: 5 });
    expect(chosen.items).toHaveLength(5);
    for (const item of chosen.items) expect(Object.keys(item).sort()).toEqual(["author", "slug"]);
  });

  it("answers aggregates with one SQL GROUP BY, the same answer as the framework's walk of the pages", async () => {
    const repo = server.app.get(ArticlesRepository);
    const walkOnly = await createTestClient(WalkOnlyArticlesModule, {
      providers: [{ provide: SQL_DATABASE, useValue: server.app.get(SQL_DATABASE) }],
    });
    const pages = vi.spyOn(repo, "page");
    try {
      for (const args of [
        { aggregate: { count: true } },
        { site: "tech", aggregate: { groupBy: "tags" } },
        {
          aggregate: { groupBy: ["site", "premium"], sum: "words", min: "words", max: "words", avg: "words" },
        },
        { site: "food", aggregate: { groupBy: "tags", top: 3, avg: "words" } },
      ]) {
        const pushed = await ok(reader, "list_articles", args);
        const walked = (await walkOnly.client.callTool({
          name: "list_articles",
          arguments: args,
        })) as CallToolResult;
        expect(walked.isError, JSON.stringify(walked.content).slice(0, 400)).toBeFalsy();
        expect(pushed.structuredContent).toEqual(walked.structuredContent);
        expect(pushed.content).toEqual(walked.content);
      }
      // Pushed down: not one page was read to answer them.
      expect(pages).not.toHaveBeenCalled();
      const tags = (await ok(reader, "list_articles", { aggregate: { groupBy: "tags" } }))
        .structuredContent as {
        groups: Array<{ key: { tags: string }; count: number }>;
        total: number;
      };
      expect(tags.total).toBe(TEST_SEED.articles);
      // An array field counts once per element: every article has a topic, a quarter are premium too.
      expect(tags.groups.reduce((sum, group) => sum + group.count, 0)).toBe(TEST_SEED.articles * 1.25);
      // A field the SQL does not group by is counted by the framework all the same.
      const byExcerpt = await ok(reader, "list_articles", {
        site: "travel",
        aggregate: { groupBy: "excerpt", top: 1 },
      });
      expect(pages).toHaveBeenCalled();
      expect((byExcerpt.structuredContent as { total: number }).total).toBe(TEST_SEED.articles / 3);
    } finally {
      pages.mockRestore();
      await walkOnly.close();
    }
  });

  it("refuses bad input with a hint: an unknown site, an unknown field, a forged cursor", async () => {
    const unknown = await call(reader, "list_articles", { site: "nope" });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain("Known sites: food, tech, travel");
    expect((await call(reader, "list_articles", { fields: ["body"] })).isError).toBe(true);
    const forged = await call(reader, "list_articles", { cursor: "not-a-cursor" });
    expect(forged.isError).toBe(true);
    expect(JSON.stringify(forged.content)).toMatch(/without|cursor/i);
  });

  it("projects one article to the fields asked for; an unknown slug says where to look", async () => {
    const [first] = (await page("list_articles", { site: "travel", limit: 1 })).items as Array<{
      slug: string;
    }>;
    const result = await ok(reader, "get_article", { slug: first?.slug, fields: ["title", "author"] });
    expect(Object.keys(result.structuredContent ?? {}).sort()).toEqual(["author", "title"]);
    const whole = await ok(reader, "get_article", { slug: first?.slug });
    expect(String((whole.structuredContent as { body: string }).body).length).toBeGreaterThan(100);
    const missing = await call(reader, "get_article", { slug: "no-such-article" });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toContain("list_articles");
  });

  it("caches config://app, refuses a write without the scope, and drops the entry on a write", async () => {
    const settings = server.app.get(SettingsRepository);
    const before = settings.queries.settings;
    const first = await readText(reader, "config://app");
    expect(await readText(reader, "config://app")).toEqual(first);
    expect(settings.queries.settings).toBe(before + 1);

    // Anonymous: refused by the RequireScope interceptor, so nothing is written or invalidated.
    const refused = await call(reader, "set_config", { key: "theme", value: "dark" });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("config:write");
    await readText(reader, "config://app");
    expect(settings.queries.settings).toBe(before + 1);

    await ok(admin, "set_config", { key: "theme", value: "dark" });
    const after = (await readText(reader, "config://app")) as { settings: Record<string, string> };
    expect(after.settings.theme).toBe("dark");
    expect(settings.queries.settings).toBe(before + 2);
  });

  it("caches metrics://summary until record_metric writes a sample", async () => {
    const settings = server.app.get(SettingsRepository);
    const summary = (await readText(reader, "metrics://summary")) as {
      articles: { total: number };
      logs: { total: number };
    };
    expect(summary.articles.total).toBe(TEST_SEED.articles);
    expect(summary.logs.total).toBe(TEST_SEED.appLogLines);
    const queries = settings.queries.metrics;
    await readText(reader, "metrics://summary");
    expect(settings.queries.metrics).toBe(queries);
    await ok(admin, "record_metric", { name: "signups", value: 3 });
    const after = (await readText(reader, "metrics://summary")) as { samples: Record<string, unknown> };
    expect(after.samples.signups).toEqual({ count: 1, avg: 3, last: 3 });
    expect(settings.queries.metrics).toBe(queries + 1);
  });

  it("spills a large log search to an ephemeral resource, read and searched in slices within the budget", async () => {
    const result = await ok(reader, "app_search_logs", { query: "WARN" });
    expect((await costOfToolResult(result)).tokens).toBeLessThanOrEqual(2_000);
    const link = result.content?.find((b) => b.type === "resource_link") as { uri: string } | undefined;
    expect(link?.uri).toMatch(/^ephemeral:\/\/app_search_logs\//);
    const expected = (await server.app.get(AppLogsRepository).search("WARN", 1e6)).map(formatLine);
    expect(expected.length).toBeGreaterThan(200);

    const lines: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const slice = await ok(reader, "read_resource", { uri: link?.uri, offset });
      expect((await costOfToolResult(slice)).tokens).toBeLessThanOrEqual(2_000);
      const body = slice.structuredContent as { lines: string[]; nextOffset: number | null };
      lines.push(...body.lines);
      offset = body.nextOffset;
    }
    expect(lines).toEqual(expected);

    const found = (await ok(reader, "search_resource", { uri: link?.uri, pattern: "retrying job", limit: 3 }))
      .structuredContent as { matches: Array<{ text: string }> };
    expect(found.matches).toHaveLength(3);
    for (const match of found.matches) expect(match.text).toContain("retrying job");

    // Another caller cannot read it: results belong to their owner.
    const foreign = await call(admin, "read_resource", { uri: link?.uri });
    expect(foreign.isError).toBe(true);
  });

  it("tails a log by time: chunks by cursor, then since = nextSince, every line once", async () => {
    for (const tool of ["app_tail_logs", "access_tail_logs"]) {
      const latest = await page(tool, {});
      expect(latest.count).toBeGreaterThan(0);
      const last = Date.parse(String((latest.items.at(-1) as { at: string }).at));
      let since: number | string = last - 20 * 60_000;
      const seen: number[] = [];
      for (let windows = 0; windows < 10; windows++) {
        let cursor: string | undefined;
        let chunk: Envelope<{ seq: number }>;
        do {
          chunk = (await page(tool, { since, limit: 20, ...(cursor ? { cursor } : {}) })) as Envelope<{
            seq: number;
          }>;
          seen.push(...chunk.items.map((i) => i.seq));
          cursor = chunk.nextCursor ?? undefined;
        } while (cursor);
        if (chunk.nextSince === undefined || chunk.nextSince === null) break;
        since = chunk.nextSince;
        if (Date.parse(String(since)) >= last) break;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBeGreaterThan(5);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    }
  });

  it("answers the newest lines of a log with tail, and the lines after them with since = nextSince", async () => {
    for (const tool of ["app_tail_logs", "access_tail_logs"]) {
      const latest = await page(tool, { limit: 200 });
      const tail = (await page(tool, { tail: 3 })) as Envelope<{ seq: number; at: string }>;
      expect(tail.items).toEqual(latest.items.slice(-3));
      // The log was generated before the server started: nothing is newer, and a poll from nextSince finds nothing again.
      const lastAt = Date.parse(String(tail.items.at(-1)?.at));
      expect(Date.parse(String(tail.nextSince))).toBeGreaterThanOrEqual(lastAt);
      const after = await page(tool, { since: tail.nextSince });
      expect(after.items.filter((line) => Date.parse(String((line as { at: string }).at)) <= lastAt)).toEqual(
        [],
      );
      const counted = (await ok(reader, tool, { limit: 0 })).structuredContent as { total: number | null };
      expect(counted).toHaveProperty("total");
    }
  });

  it("serves a download in byte chunks that reassemble the file", async () => {
    const { files } = (await ok(reader, "list_files")).structuredContent as {
      files: Array<{ id: string; name: string; size: number }>;
    };
    const logo = files.find((f) => f.id === "logo");
    expect(logo?.size).toBe(48 * 1024);
    const parts: Buffer[] = [];
    let offset = 0;
    for (;;) {
      const chunk = (await ok(reader, "download_file", { fileId: "logo", offset, byteCount: 20_000 }))
        .structuredContent as { bytes: string; byteCount: number; hasMore: boolean };
      parts.push(Buffer.from(chunk.bytes, "base64"));
      offset += chunk.byteCount;
      if (!chunk.hasMore) break;
    }
    const onDisk = readFileSync(server.app.get(DataDirectory).file("logo.png"));
    expect(Buffer.concat(parts).equals(onDisk)).toBe(true);
    expect((await call(reader, "download_file", { fileId: "../etc/passwd" })).isError).toBe(true);
  });

  it("answers 401 to an unknown bearer token", async () => {
    await expect(connect(server.url, "stolen-token")).rejects.toThrow(/401|Unauthorized/);
  });
}
