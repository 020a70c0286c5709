/**
 * Adaptive pages (`@Paginated(key, { adaptive: true })`) against fixed pages
 * (`npm run build && node .build/bench/adaptive.bench.js`).
 *
 * A model is played by a real SDK `Client` over an in-memory transport. It either walks a
 * whole list of 1,000 items, following `nextCursor` to the end (leaving `limit` out, as a
 * model does when it just goes on), or looks at the first page (and the first two) and
 * stops. For each, we count the calls and what the model read: the tokens of every text
 * block (o200k, the `TOKEN_COUNTER` default; `structuredContent` duplicates the text and
 * is not read twice) and their bytes. The same tool is served twice, by two apps with one
 * cursor secret and one (manual) clock, so their cursors can be compared byte for byte:
 *
 * (a) catalogue items of about 25 tokens (uri, title, updatedAt, premium), limit 20,
 *     maxLimit 100, no budget;
 * (b) the same under `@Budget(2000)`, which cuts grown pages to what fits;
 * (c) the articles example (examples/articles, PGlite, 1,000 rows in one site; limit 20,
 *     maxLimit 50), walked without `limit` (adaptive) and with `limit: 20` on every call
 *     (what fixed pages do);
 * (d) what `tools/list` costs for the tool: the `limit` input's description tells the
 *     model to leave it out when following `nextCursor`.
 *
 * Results also go to bench/results/adaptive.json. Figures are counts, not timings: they
 * do not depend on the machine. A full walk's wall time is shown for scale (median of 5).
 */
import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  BpeTokenCounter,
  Budget,
  CLOCK,
  ManualClock,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { ArticlesModule } from "../examples/articles/app.module.js";
import { ARTICLES_REPO, generateArticles } from "../examples/articles/articles.repo.js";
import { PgliteArticlesRepo } from "../examples/articles/pglite-articles.repo.js";
import { median } from "./lib/measure.js";

const ITEMS = 1_000;
const SECRET = "adaptive-bench-secret-0123456789";
const BUDGET = 2_000;
const log = (line: string) => process.stderr.write(`${line}\n`);
const counter = new BpeTokenCounter();
const tokensOf = async (text: string) => (await counter.count(text, Number.MAX_SAFE_INTEGER)).tokens;

/** A catalogue row as a list shows it: about 25 tokens of JSON. */
const CATALOGUE = Array.from({ length: ITEMS }, (_, i) => ({
  id: i + 1,
  uri: `catalog://items/${i + 1}`,
  title: `Item number ${i + 1} of the catalogue`,
  updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
  premium: i % 3 === 0,
}));

/** What a keyset query returns: `limit + 1` rows after `ctx.page.after`. */
function rowsAfter(ctx: ToolContext) {
  const page = ctx.page;
  if (!page) throw new Error("ctx.page is set under @Paginated");
  const after = page.after === null ? 0 : Number(page.after.id);
  return CATALOGUE.slice(after, after + page.limit + 1);
}

function catalogueService(adaptive: boolean) {
  @McpService()
  class CatalogueService {
    @Tool({ description: "The catalogue, oldest first" })
    @Paginated("id", { limit: 20, maxLimit: 100, adaptive })
    items(_input: unknown, ctx: ToolContext) {
      return rowsAfter(ctx);
    }

    @Tool({ description: "The catalogue, oldest first, within a token budget" })
    @Paginated("id", { limit: 20, maxLimit: 100, adaptive })
    @Budget(BUDGET)
    budgeted(_input: unknown, ctx: ToolContext) {
      return rowsAfter(ctx);
    }
  }
  @McpModule({ services: [CatalogueService] })
  class CatalogueModule {}
  return CatalogueModule;
}

async function connect(app: McpApp): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.connect(serverSide);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** What a model read over some calls. */
interface Reading {
  calls: number;
  items: number;
  tokens: number;
  bytes: number;
  /** Items per call, in order. */
  counts: number[];
}

/** Calls `name` following nextCursor, at most `maxCalls` times (0: to the end). */
async function read(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  maxCalls = 0,
): Promise<Reading> {
  const reading: Reading = { calls: 0, items: 0, tokens: 0, bytes: 0, counts: [] };
  let cursor: string | null = null;
  let lastId = "";
  do {
    const result = await client.callTool({ name, arguments: cursor ? { ...args, cursor } : args });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    for (const block of result.content as Array<{ type: string; text?: string }>) {
      if (block.type !== "text" || block.text === undefined) continue;
      reading.tokens += await tokensOf(block.text);
      reading.bytes += Buffer.byteLength(block.text);
    }
    const page = result.structuredContent as {
      items: Array<Record<string, unknown>>;
      nextCursor: string | null;
    };
    const first = String(page.items[0]?.id ?? page.items[0]?.uri ?? "");
    if (first !== "" && first === lastId) throw new Error(`${name}: a page started again at ${first}`);
    lastId = String(page.items.at(-1)?.id ?? page.items.at(-1)?.uri ?? "");
    reading.calls++;
    reading.items += page.items.length;
    reading.counts.push(page.items.length);
    cursor = page.nextCursor;
  } while (cursor && (maxCalls === 0 || reading.calls < maxCalls));
  return reading;
}

async function wallMs(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  await run(); // warm-up
  for (let i = 0; i < 5; i++) {
    const start = process.hrtime.bigint();
    await run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

// ---------------------------------------------------------------- (a), (b) the catalogue
const clock = new ManualClock(Date.UTC(2026, 5, 1));
const appOptions = {
  version: "1.0.0",
  cursorSecret: SECRET,
  providers: [{ provide: CLOCK, useValue: clock }],
};
const fixedApp = await McpFactory.create(catalogueService(false), { name: "fixed", ...appOptions });
const adaptiveApp = await McpFactory.create(catalogueService(true), { name: "adaptive", ...appOptions });
const fixed = await connect(fixedApp);
const adaptive = await connect(adaptiveApp);

type Row = { scenario: string; fixed: Reading; adaptive: Reading };
const rows: Row[] = [];
for (const [scenario, name, maxCalls] of [
  [`full walk of ${ITEMS.toLocaleString("en")} items`, "items", 0],
  [`full walk of ${ITEMS.toLocaleString("en")} items, @Budget(${BUDGET})`, "budgeted", 0],
  ["one-page look", "items", 1],
  ["two-page look", "items", 2],
] as const) {
  log(`${scenario}…`);
  const row = {
    scenario,
    fixed: await read(fixed, name, {}, maxCalls),
    adaptive: await read(adaptive, name, {}, maxCalls),
  };
  if (maxCalls === 0 && (row.fixed.items !== ITEMS || row.adaptive.items !== ITEMS)) {
    throw new Error(`${scenario}: read ${row.fixed.items} and ${row.adaptive.items} items`);
  }
  rows.push(row);
}
const onePage = rows[2] as Row;
if (onePage.fixed.tokens !== onePage.adaptive.tokens || onePage.fixed.bytes !== onePage.adaptive.bytes) {
  throw new Error("a one-page look costs more with adaptive pages");
}
const walkMs = {
  fixed: await wallMs(() => read(fixed, "items", {})),
  adaptive: await wallMs(() => read(adaptive, "items", {})),
};

// ---------------------------------------------------------------- (c) the articles example
log("articles example…");
const repo = new PgliteArticlesRepo({ seed: 0 });
await repo.upsert(generateArticles(ITEMS, { sites: ["bench"] }));
const articlesApp = await McpFactory.create(ArticlesModule, {
  name: "articles-bench",
  version: "1.0.0",
  cursorSecret: SECRET,
  providers: [{ provide: ARTICLES_REPO, useValue: repo }],
});
const articles = await connect(articlesApp);
const articlesRow: Row = {
  scenario: `articles example: full walk of ${ITEMS.toLocaleString("en")} rows (PGlite)`,
  fixed: await read(articles, "list_articles", { site: "bench", limit: 20 }),
  adaptive: await read(articles, "list_articles", { site: "bench" }),
};
if (articlesRow.fixed.items !== ITEMS || articlesRow.adaptive.items !== ITEMS) {
  throw new Error(`articles: read ${articlesRow.fixed.items} and ${articlesRow.adaptive.items} rows`);
}
rows.push(articlesRow);

// ---------------------------------------------------------------- (d) tools/list
const listTokens = async (client: Client) => {
  const { tools } = await client.listTools();
  return tokensOf(JSON.stringify(tools.find((t) => t.name === "items")));
};
const toolTokens = { fixed: await listTokens(fixed), adaptive: await listTokens(adaptive) };

// ---------------------------------------------------------------- report
/** `-3,881 (-7.7 %)`: the difference in tokens, and relative to fixed pages. */
const delta = (a: number, b: number) =>
  `${a - b > 0 ? "+" : ""}${(a - b).toLocaleString("en")} (${b === 0 ? 0 : ((100 * (a - b)) / b).toFixed(1)} %)`;
const sizes = (counts: number[]) =>
  counts.length <= 8 ? counts.join(", ") : `${counts.slice(0, 6).join(", ")}, … (${counts.at(-1)})`;
console.log(`### Adaptive pages: calls and tokens a model reads (limit 20, maxLimit 100 unless said)\n`);
console.log(
  "| scenario | calls fixed | calls adaptive | tokens fixed | tokens adaptive | tokens Δ | bytes fixed | bytes adaptive | adaptive page sizes |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
for (const r of rows) {
  console.log(
    `| ${r.scenario} | ${r.fixed.calls} | ${r.adaptive.calls} | ${r.fixed.tokens.toLocaleString("en")} | ${r.adaptive.tokens.toLocaleString("en")} | ${delta(r.adaptive.tokens, r.fixed.tokens)} | ${r.fixed.bytes.toLocaleString("en")} | ${r.adaptive.bytes.toLocaleString("en")} | ${sizes(r.adaptive.counts)} |`,
  );
}
console.log(
  `\nFull walk wall time (in-memory transport, median of 5): fixed ${walkMs.fixed.toFixed(1)} ms, adaptive ${walkMs.adaptive.toFixed(1)} ms.`,
);
console.log(
  `The tool's entry in tools/list: ${toolTokens.fixed} tokens fixed, ${toolTokens.adaptive} adaptive (the limit's description says to omit it when following nextCursor).`,
);
console.log(
  `The articles example's adaptive walk has maxLimit 50; its fixed walk passes limit: 20 on every call.`,
);

const results = {
  benchmark: "adaptive",
  date: new Date().toISOString(),
  node: process.version,
  items: ITEMS,
  budget: BUDGET,
  scenarios: rows,
  walkMs,
  toolsListTokens: toolTokens,
};
const dir = new URL("../../bench/results/", import.meta.url); // from .build/bench/
mkdirSync(dir, { recursive: true });
writeFileSync(new URL("adaptive.json", dir), `${JSON.stringify(results, null, 2)}\n`);

await Promise.all([fixed.close(), adaptive.close(), articles.close()]);
await Promise.all([fixedApp.close(), adaptiveApp.close(), articlesApp.close()]);
