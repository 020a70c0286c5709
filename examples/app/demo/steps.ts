import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpApp } from "frugal-mcp";
import { ArticlesRepository } from "../src/articles/articles.repository.js";
import { AppLogsRepository } from "../src/logs/app-logs.repository.js";
import { formatLine } from "../src/logs/log-source.js";
import { SettingsRepository } from "../src/settings/settings.repository.js";
import { add, type Cost, costOfResource, costOfToolResult, ZERO } from "./measure.js";
import { ProgressBar, type ProgressTarget } from "./progress-bar.js";

/** What one step of the demo cost, with frugal-mcp and returned whole. */
export interface StepResult {
  step: string;
  /** What the model did, in a few words. */
  did: string;
  calls: number;
  frugal: Cost;
  /** The same data the model got, as a plain tool's minified JSON in one call (no envelope, no cursor). */
  plain: Cost;
  whole: Cost;
  /** What "returned whole" means for this step. */
  wholeIs: string;
  /** What else the step showed (cache hits, the invalidation, the spilled resource). */
  note: string;
}

/**
 * What a step measured while the server ran. The same data returned whole is kept as text
 * and counted once the server is closed: counting megabytes takes seconds of CPU, and the
 * server, in the same process, must not be kept waiting meanwhile.
 */
export interface StepRun {
  step: string;
  did: string;
  calls: number;
  frugal: Cost;
  /** The JSON a plain tool would return for exactly the data the model got (each counted on its own). */
  plainTexts: string[];
  /** The JSON or texts a tool without frugal-mcp would have returned (each counted on its own). */
  wholeTexts: string[];
  /** What "returned whole" means for this step. */
  wholeIs: string;
  /** What else the step showed (cache hits, the invalidation, the spilled resource). */
  note: string;
}

/** What a step is given: a reader and an admin session on the server, and the app (to see the whole data). */
export interface StepContext {
  reader: Client;
  admin: Client;
  app: McpApp;
  progress: ProgressTarget | undefined;
}

type Envelope<T = Record<string, unknown>> = {
  items: T[];
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
  nextSince?: string | number | null;
};

async function tool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  const text = (result.content ?? []).map((b) => (b.type === "text" ? b.text : JSON.stringify(b))).join("");
  return { result, text, cost: await costOfToolResult(result) };
}

/**
 * The data a tool result carries, as a plain tool would return it: a page's or slice's items
 * or lines, a search's matches, else the whole structured value (or the text).
 */
function plainJson(result: CallToolResult, text: string): string {
  const value = result.structuredContent as Record<string, unknown> | undefined;
  if (value === undefined) return text;
  for (const key of ["items", "lines", "matches"])
    if (Array.isArray(value[key])) return JSON.stringify(value[key]);
  return JSON.stringify(value);
}

async function resource(client: Client, uri: string) {
  const result = (await client.readResource({ uri })) as ReadResourceResult;
  const text = (result.contents[0] as { text?: string } | undefined)?.text ?? "{}";
  return { value: JSON.parse(text) as Record<string, unknown>, text, cost: await costOfResource(result) };
}

/** 1. The first page of the catalogue, default fields. */
export async function listStep({ reader, app }: StepContext): Promise<StepRun> {
  const { result, cost } = await tool(reader, "list_articles");
  const page = result.structuredContent as Envelope;
  const all = await app.get(ArticlesRepository).all();
  return {
    step: "list",
    did: "list_articles: first page, default fields",
    calls: 1,
    frugal: cost,
    plainTexts: [JSON.stringify(page.items)],
    wholeTexts: [JSON.stringify(all)],
    wholeIs: `all ${all.length} articles, every field`,
    note: `${page.count} items × ${Object.keys(page.items[0] ?? {}).length} fields, nextCursor to go on`,
  };
}

/** 2. Every page of one site, by cursor. */
export async function pageStep({ reader, app, progress }: StepContext): Promise<StepRun> {
  const site = "tech";
  const whole = await app.get(ArticlesRepository).all(site);
  // No `limit`, as a model walks: the adaptive pages grow while the walk goes on.
  const bar = new ProgressBar(progress, "page", whole.length);
  const sizes: number[] = [];
  const delivered: unknown[] = [];
  let cost = ZERO;
  let calls = 0;
  let cursor: string | undefined;
  do {
    const page = await tool(reader, "list_articles", { site, ...(cursor ? { cursor } : {}) });
    const envelope = page.result.structuredContent as Envelope;
    cost = add(cost, page.cost);
    calls++;
    sizes.push(envelope.count);
    delivered.push(...envelope.items);
    for (let i = 0; i < envelope.count; i++) bar.tick();
    cursor = envelope.nextCursor ?? undefined;
  } while (cursor);
  bar.done();
  return {
    step: "page",
    did: `list_articles: every page of site ${site}`,
    calls,
    frugal: cost,
    plainTexts: [JSON.stringify(delivered)],
    wholeTexts: [JSON.stringify(whole)],
    wholeIs: `the ${whole.length} ${site} articles, every field`,
    note: `${calls} adaptive pages (${sizes.slice(0, 5).join(", ")}, …; fixed pages of 10 take ${Math.ceil(whole.length / 10)}), each within its 1,500-token budget`,
  };
}

/** 3. Only the fields the model needs, for a page and for one article. */
export async function projectStep({ reader, app }: StepContext): Promise<StepRun> {
  const repo = app.get(ArticlesRepository);
  const page = await tool(reader, "list_articles", { site: "food", limit: 50, fields: ["slug", "title"] });
  const items = (page.result.structuredContent as Envelope<{ slug: string }>).items;
  const slug = items[0]?.slug ?? "";
  const one = await tool(reader, "get_article", { slug, fields: ["title", "author"] });
  const wholeRows = (await repo.all("food")).slice(0, items.length);
  return {
    step: "project",
    did: "list_articles + get_article with `fields`",
    calls: 2,
    frugal: add(page.cost, one.cost),
    plainTexts: [JSON.stringify(items), plainJson(one.result, one.text)],
    wholeTexts: [JSON.stringify(wholeRows), JSON.stringify(await repo.get(slug))],
    wholeIs: `the same ${items.length} articles and the article, every field`,
    note: "slug+title for the list; title+author for the article",
  };
}

/** 4. A cached resource read twice: the second read never reaches the database. */
export async function cacheStep({ reader, app }: StepContext): Promise<StepRun> {
  const settings = app.get(SettingsRepository);
  const before = settings.queries.settings;
  const hitsBefore = app.stats().cache.hits;
  const first = await resource(reader, "config://app");
  const second = await resource(reader, "config://app");
  return {
    step: "cache",
    did: "read config://app twice",
    calls: 2,
    frugal: add(first.cost, second.cost),
    plainTexts: [first.text, second.text],
    wholeTexts: [first.text, second.text],
    wholeIs: "the same two reads (a cache saves the server's work, not tokens)",
    note: `database queried ${settings.queries.settings - before}× for 2 reads; cache hits +${app.stats().cache.hits - hitsBefore}`,
  };
}

/** 5. A write drops the cached entry at once: the next read is fresh. */
export async function invalidateStep({ reader, admin, app }: StepContext): Promise<StepRun> {
  const settings = app.get(SettingsRepository);
  const before = settings.queries.settings;
  const write = await tool(admin, "set_config", { key: "theme", value: "dark" });
  const read = await resource(reader, "config://app");
  const theme = (read.value.settings as Record<string, string> | undefined)?.theme;
  return {
    step: "invalidate",
    did: "set_config theme=dark, read config://app",
    calls: 2,
    frugal: add(write.cost, read.cost),
    plainTexts: [plainJson(write.result, write.text), read.text],
    wholeTexts: [write.text, read.text],
    wholeIs: "the same write and read",
    note: `config.changed dropped the entry: read theme=${theme} (database queried ${settings.queries.settings - before}×)`,
  };
}

/** 6. A log search too large to return: stored, then searched and read in slices. */
export async function searchStep({ reader, app, progress }: StepContext): Promise<StepRun> {
  const query = "WARN";
  const search = await tool(reader, "app_search_logs", { query });
  const link = search.result.content?.find((b) => b.type === "resource_link") as { uri: string } | undefined;
  const matching = (await app.get(AppLogsRepository).search(query, Number.MAX_SAFE_INTEGER)).map(formatLine);
  const whole = matching.join("\n");
  if (!link) {
    return {
      step: "search",
      did: `app_search_logs "${query}"`,
      calls: 1,
      frugal: search.cost,
      plainTexts: [JSON.stringify(matching)],
      wholeTexts: [whole],
      wholeIs: `the ${matching.length} matching lines`,
      note: "small enough to answer inline",
    };
  }
  let cost = search.cost;
  let calls = 1;
  const found = await tool(reader, "search_resource", { uri: link.uri, pattern: "retrying job", limit: 5 });
  const read = [plainJson(found.result, found.text)];
  cost = add(cost, found.cost);
  calls++;
  const slices = 3;
  const bar = new ProgressBar(progress, "slices", slices);
  let offset: number | null = 0;
  for (let i = 0; i < slices && offset !== null; i++) {
    const slice = await tool(reader, "read_resource", { uri: link.uri, offset });
    cost = add(cost, slice.cost);
    read.push(plainJson(slice.result, slice.text));
    calls++;
    bar.tick();
    offset = (slice.result.structuredContent as { nextOffset: number | null }).nextOffset;
  }
  bar.done();
  return {
    step: "search",
    did: `app_search_logs "${query}", search_resource, ${calls - 2} slices`,
    calls,
    frugal: cost,
    plainTexts: read,
    wholeTexts: [whole],
    wholeIs: `the ${matching.length} matching lines`,
    note: `${size(Buffer.byteLength(whole))} stored as ${link.uri.slice(0, 30)}…; read its first ${offset ?? matching.length} lines`,
  };
}

/** 7. The last quarter hour of the log, five minutes a chunk, walked by cursor and `nextSince`. */
export async function tailStep({ reader, app, progress }: StepContext): Promise<StepRun> {
  // Where the log ends, as a model would learn it: metrics://summary has the log's time range
  // (a database seeded days ago has no line in "the latest five minutes").
  const summary = await resource(reader, "metrics://summary");
  const lastAt = (summary.value.logs as { last?: string | null } | undefined)?.last;
  const last = lastAt ? Date.parse(lastAt) : Date.now();
  const minutes = 15;
  let since: string | number = last - minutes * 60_000;
  let cost = summary.cost;
  let calls = 1;
  let lines = 0;
  const delivered: unknown[] = [];
  const bar = new ProgressBar(progress, "tail", minutes / 5);
  for (let window = 0; window < 20; window++) {
    let cursor: string | undefined;
    let chunk: Envelope;
    do {
      const page = await tool(reader, "app_tail_logs", { since, ...(cursor ? { cursor } : {}) });
      cost = add(cost, page.cost);
      calls++;
      chunk = page.result.structuredContent as Envelope;
      lines += chunk.count;
      delivered.push(...chunk.items);
      cursor = chunk.nextCursor ?? undefined;
    } while (cursor);
    bar.tick();
    if (chunk.nextSince === undefined || chunk.nextSince === null) break;
    since = chunk.nextSince;
    if ((typeof since === "number" ? since : Date.parse(since)) >= last) break;
  }
  bar.done();
  const everything = (await app.get(AppLogsRepository).window(null, null, null, Number.MAX_SAFE_INTEGER)).map(
    formatLine,
  );
  return {
    step: "tail",
    did: `metrics://summary, then app_tail_logs: the log's last ${minutes} min by nextSince`,
    calls,
    frugal: cost,
    plainTexts: [summary.text, JSON.stringify(delivered)],
    wholeTexts: [everything.join("\n")],
    wholeIs: `the whole log, ${everything.length} lines (no since, no cursor)`,
    note: `${lines} lines in 5-minute chunks, each line once`,
  };
}

/** The steps, in the order a model would take them. */
export const STEPS = [listStep, pageStep, projectStep, cacheStep, invalidateStep, searchStep, tailStep];

/** `1.2 MB`, `34 KB`. */
function size(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} KB`;
}
