/**
 * Cost of deep pages under `@Paginated` (`npm run bench:pagination`).
 *
 * (a) Keyset pages of SQL rows. The articles example (examples/articles) on PGlite with
 *     100,000 rows in one site, reached by a real SDK `Client` over an in-memory transport.
 *     The walk first reads all 2,000 pages of 50 (checking every row comes exactly once, in
 *     order) and keeps the real cursor that page 1,000 starts from. Then page 1 and page
 *     1,000 are timed as whole `tools/call` round trips, with page 2 (the first page that
 *     carries a cursor) to tell the cursor's cost from depth's: 200 warm-up calls each, one
 *     full GC, 15 rounds of 200 sequential calls per page in rotating order; reported are
 *     the median µs/call and the median of per-round ratios (bench/lib/measure.ts).
 *     Goal: page 1,000 / page 1 ≤ 1.2.
 *     For contrast, the same SELECT is timed directly in PGlite at pages 1, 100, 1,000 and
 *     2,000, once with the keyset condition and once with `LIMIT 51 OFFSET n`: OFFSET steps
 *     over every earlier row, so its cost grows with depth, where the keyset seek does not.
 * (b) An async generator of 1,000,000 items behind a `@Paginated` tool: how many items it
 *     yields for one page of 50 (must be limit + 1 = 51: the framework stops reading and
 *     closes it), and what a page costs. A generator that ignores `ctx.page.after` has to
 *     be read up to the cursor, so its page 1,000 is shown too; one that seeks to
 *     `ctx.page.after` costs the same at any depth.
 * Results also go to bench/results/pagination.json.
 */
import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { ArticlesModule } from "../examples/articles/app.module.js";
import { ARTICLES_REPO, compareByKey, generateArticles } from "../examples/articles/articles.repo.js";
import { PgliteArticlesRepo } from "../examples/articles/pglite-articles.repo.js";
import { type Contender, median, medianRatio, runInterleaved, type Samples } from "./lib/measure.js";

const ROWS = 100_000;
const PAGE = 50;
const DEEP = 1_000;
const SQL_DEPTHS = [1, 100, 1_000, 2_000];
const ITEMS = 1_000_000;
const GOAL = 1.2;
const SECRET = "pagination-bench-secret-0123456789";

const log = (line: string) => process.stderr.write(`${line}\n`);
const progress = (label: string, rounds: number) => (round: number, perOp: ReadonlyMap<string, number>) =>
  log(
    `${label} ${round + 1}/${rounds}: ${[...perOp].map(([n, us]) => `${n} ${us.toFixed(1)} µs`).join(", ")}`,
  );

type Envelope = { items: Array<Record<string, unknown>>; nextCursor: string | null; count: number };

async function connect(app: McpApp): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.connect(serverSide);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

async function callPage(client: Client, name: string, args: Record<string, unknown>): Promise<Envelope> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as unknown as Envelope;
}

// ---------------------------------------------------------------- (a) SQL rows
log(`seeding ${ROWS.toLocaleString("en")} rows…`);
const rows = generateArticles(ROWS, { sites: ["bench"] });
/** The example's repository, with its database at hand for the SQL-alone timings. */
class BenchRepo extends PgliteArticlesRepo {
  async sql<T>(text: string, params: unknown[] = []): Promise<T[]> {
    await this.ready();
    return (await this.client.query<T>(text, params)).rows;
  }
}
const repo = new BenchRepo({ seed: 0 });
await repo.upsert(rows);
await repo.sql("ANALYZE");
const [{ version: database } = { version: "?" }] = await repo.sql<{ version: string }>(
  "SELECT version() AS version",
);
const order = [...rows].sort(compareByKey);
const articlesApp = await McpFactory.create(ArticlesModule, {
  name: "articles-bench",
  version: "1.0.0",
  cursorSecret: SECRET,
  providers: [{ provide: ARTICLES_REPO, useValue: repo }],
});
const articles = await connect(articlesApp);

// Walk every page once: checks the walk and yields a real cursor for page 1,000.
let cursor: string | null = null;
let secondCursor: string | undefined;
let deepCursor: string | undefined;
let walked = 0;
let pages = 0;
do {
  const page: Envelope = await callPage(articles, "list_articles", {
    site: "bench",
    limit: PAGE,
    fields: ["slug"],
    ...(cursor ? { cursor } : {}),
  });
  for (const item of page.items) {
    if (item.slug !== order[walked]?.slug) throw new Error(`walk: row ${walked} is ${item.slug}`);
    walked++;
  }
  pages++;
  cursor = page.nextCursor;
  if (pages === 1) secondCursor = cursor ?? undefined;
  if (pages === DEEP - 1) deepCursor = cursor ?? undefined;
} while (cursor);
if (walked !== ROWS || !deepCursor) throw new Error(`walk read ${walked} rows in ${pages} pages`);
log(`walked ${pages} pages, ${walked} rows, each once and in order`);

const listArgs = { site: "bench", limit: PAGE };
const deepCheck = await callPage(articles, "list_articles", {
  ...listArgs,
  cursor: deepCursor,
  fields: ["slug"],
});
if (deepCheck.items[0]?.slug !== order[(DEEP - 1) * PAGE]?.slug)
  throw new Error("page 1,000 starts elsewhere");

const MCP_ROUNDS = 15;
const mcp = await runInterleaved(
  [
    { name: "page 1", once: () => callPage(articles, "list_articles", listArgs) },
    // Page 2 carries a cursor too: page 1,000 / page 2 is the cost of depth alone, without the cursor's.
    {
      name: "page 2",
      once: () => callPage(articles, "list_articles", { ...listArgs, cursor: secondCursor }),
    },
    {
      name: `page ${DEEP}`,
      once: () => callPage(articles, "list_articles", { ...listArgs, cursor: deepCursor }),
    },
  ],
  { warmup: 200, rounds: MCP_ROUNDS, opsPerRound: 200, onRound: progress("mcp", MCP_ROUNDS) },
);

// The same SELECT as SqlArticlesRepo, timed in PGlite alone: keyset seek vs OFFSET.
const SUMMARY = "site, slug, title, premium, updated_at, substr(body, 1, 120) AS excerpt";
const keysetFirst = `SELECT ${SUMMARY} FROM ${repo.table} WHERE site = $1 ORDER BY updated_at, slug LIMIT $2`;
const keysetAfter = `SELECT ${SUMMARY} FROM ${repo.table} WHERE site = $1 AND (updated_at, slug) > ($2, $3) ORDER BY updated_at, slug LIMIT $4`;
const offset = `SELECT ${SUMMARY} FROM ${repo.table} WHERE site = $1 ORDER BY updated_at, slug LIMIT $2 OFFSET $3`;
const plan = async (sql: string, ...args: unknown[]) =>
  (await repo.sql<{ "QUERY PLAN": string }>(`EXPLAIN ${sql}`, args))
    .map((r) => r["QUERY PLAN"].trim())
    .join("; ");
const keysetPage = (page: number) => {
  const last = order[(page - 1) * PAGE - 1];
  return last
    ? () => repo.sql<{ slug: string }>(keysetAfter, ["bench", last.updatedAt, last.slug, PAGE + 1])
    : () => repo.sql<{ slug: string }>(keysetFirst, ["bench", PAGE + 1]);
};
const offsetPage = (page: number) => () =>
  repo.sql<{ slug: string }>(offset, ["bench", PAGE + 1, (page - 1) * PAGE]);
for (const page of SQL_DEPTHS) {
  const a = await keysetPage(page)();
  const b = await offsetPage(page)();
  if (a.map((r) => r.slug).join() !== b.map((r) => r.slug).join()) throw new Error(`page ${page} differs`);
}
const sqlContenders = (kind: string, make: (page: number) => () => Promise<unknown>): Contender[] =>
  SQL_DEPTHS.map((page) => {
    const run = make(page);
    return { name: `${kind} page ${page}`, once: run };
  });
const SQL_ROUNDS = 9;
const keyset = await runInterleaved(sqlContenders("keyset", keysetPage), {
  warmup: 200,
  rounds: SQL_ROUNDS,
  opsPerRound: 500,
  onRound: progress("sql keyset", SQL_ROUNDS),
});
const offsets = await runInterleaved(sqlContenders("offset", offsetPage), {
  warmup: 3,
  rounds: SQL_ROUNDS,
  opsPerRound: 10,
  onRound: progress("sql offset", SQL_ROUNDS),
});

// ---------------------------------------------------------------- (b) a million-item iterable
const yielded = { count: 0 };

@McpService()
class EventsService {
  /** Yields from the start whatever the page: the framework skips up to the cursor. */
  @Tool({ description: "A million events, read from the start" })
  @Paginated("seq", { limit: PAGE, maxLimit: 50_000 })
  async *events() {
    for (let seq = 1; seq <= ITEMS; seq++) {
      yielded.count++;
      yield { seq, kind: seq % 3 === 0 ? "write" : "read" };
    }
  }

  /** Starts right after `ctx.page.after`, as a database cursor or a log reader would. */
  @Tool({ description: "A million events, read from the cursor on" })
  @Paginated("seq", { limit: PAGE, maxLimit: 50_000 })
  async *eventsSeek(_input: unknown, ctx: ToolContext) {
    const from = Number(ctx.page?.after?.seq ?? 0) + 1;
    for (let seq = from; seq <= ITEMS; seq++) {
      yielded.count++;
      yield { seq, kind: seq % 3 === 0 ? "write" : "read" };
    }
  }
}

@McpModule({ services: [EventsService] })
class EventsModule {}

const eventsApp = await McpFactory.create(EventsModule, {
  name: "events-bench",
  version: "1.0.0",
  cursorSecret: SECRET,
});
const events = await connect(eventsApp);
/** Yields counted during one call of a page. */
async function yieldsFor(name: string, args: Record<string, unknown>): Promise<number> {
  yielded.count = 0;
  const page = await callPage(events, name, args);
  if (page.count !== Math.min(Number(args.limit ?? PAGE), ITEMS))
    throw new Error(`${name}: ${page.count} items`);
  return yielded.count;
}
// `limit` is not part of a cursor's binding: one page of 49,950 hands out page 1,000's cursor.
const skipTo = async (name: string) =>
  (await callPage(events, name, { limit: (DEEP - 1) * PAGE })).nextCursor as string;
const naiveDeep = await skipTo("events");
const seekDeep = await skipTo("events_seek");
const yields = {
  naivePage1: await yieldsFor("events", {}),
  seekPage1: await yieldsFor("events_seek", {}),
  seekPage1000: await yieldsFor("events_seek", { cursor: seekDeep }),
  naivePage1000: await yieldsFor("events", { cursor: naiveDeep }),
};
if (yields.naivePage1 !== PAGE + 1 || yields.seekPage1 !== PAGE + 1 || yields.seekPage1000 !== PAGE + 1) {
  throw new Error(`a page read more than limit + 1 items: ${JSON.stringify(yields)}`);
}
const ITER_ROUNDS = 15;
const iter = await runInterleaved(
  [
    { name: "iterable page 1", once: () => callPage(events, "events", {}) },
    { name: "seeking iterable page 1", once: () => callPage(events, "events_seek", {}) },
    {
      name: `seeking iterable page ${DEEP}`,
      once: () => callPage(events, "events_seek", { cursor: seekDeep }),
    },
  ],
  { warmup: 200, rounds: ITER_ROUNDS, opsPerRound: 200, onRound: progress("iterable", ITER_ROUNDS) },
);
const naiveDeepRuns = await runInterleaved(
  [{ name: `iterable page ${DEEP}`, once: () => callPage(events, "events", { cursor: naiveDeep }) }],
  { warmup: 2, rounds: 7, opsPerRound: 3 },
);
// Reading the whole generator, without MCP: what one page does not pay for.
const drainMs: number[] = [];
for (let i = 0; i < 3; i++) {
  const start = process.hrtime.bigint();
  let n = 0;
  for await (const event of new EventsService().events()) n += event.seq > 0 ? 1 : 0;
  if (n !== ITEMS) throw new Error(`drained ${n}`);
  drainMs.push(Number(process.hrtime.bigint() - start) / 1e6);
}

// ---------------------------------------------------------------- report
/** Two decimals: enough for µs and ratios, and the JSON stays readable. */
const round = (value: number) => Math.round(value * 100) / 100;
const us = (samples: Samples, name: string) => round(median(samples.get(name) ?? []));
const deepRatio = round(medianRatio(mcp, `page ${DEEP}`, "page 1"));
const secondRatio = round(medianRatio(mcp, "page 2", "page 1"));
const depthRatio = round(medianRatio(mcp, `page ${DEEP}`, "page 2"));
const sql = SQL_DEPTHS.map((page) => ({
  page,
  row: (page - 1) * PAGE,
  keysetUs: us(keyset, `keyset page ${page}`),
  offsetUs: us(offsets, `offset page ${page}`),
  keysetRatioToPage1: page === 1 ? 1 : round(medianRatio(keyset, `keyset page ${page}`, "keyset page 1")),
  offsetRatioToPage1: page === 1 ? 1 : round(medianRatio(offsets, `offset page ${page}`, "offset page 1")),
}));

console.log(`### (a) ${ROWS.toLocaleString("en")} PGlite rows, pages of ${PAGE}\n`);
console.log(`| through the MCP client | µs/call (median of ${MCP_ROUNDS} rounds) | ratio to page 1 |`);
console.log("| --- | ---: | ---: |");
console.log(`| page 1 | ${us(mcp, "page 1").toFixed(1)} | 1.00 |`);
console.log(`| page 2 (first with a cursor) | ${us(mcp, "page 2").toFixed(1)} | ${secondRatio.toFixed(2)} |`);
console.log(
  `| page ${DEEP} (row ${((DEEP - 1) * PAGE).toLocaleString("en")}) | ${us(mcp, `page ${DEEP}`).toFixed(1)} | ${deepRatio.toFixed(2)} |`,
);
console.log(
  `\npage ${DEEP}/page 1 ${deepRatio.toFixed(2)} (goal ≤ ${GOAL}: ${deepRatio <= GOAL ? "met" : "NOT met"}); ` +
    `page ${DEEP}/page 2 ${depthRatio.toFixed(2)} (depth alone)\n`,
);
console.log(
  `| SQL alone (${SQL_ROUNDS} rounds) | keyset µs | keyset / page 1 | OFFSET µs | OFFSET / page 1 |`,
);
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const r of sql)
  console.log(
    `| page ${r.page} (OFFSET ${r.row.toLocaleString("en")}) | ${r.keysetUs.toFixed(1)} | ${r.keysetRatioToPage1.toFixed(2)} | ${r.offsetUs.toFixed(1)} | ${r.offsetRatioToPage1.toFixed(1)} |`,
  );
console.log(`\n### (b) async iterable of ${ITEMS.toLocaleString("en")} items, pages of ${PAGE}\n`);
console.log(`| through the MCP client | items yielded | µs/call (median) |`);
console.log("| --- | ---: | ---: |");
console.log(`| page 1 | ${yields.naivePage1} | ${us(iter, "iterable page 1").toFixed(1)} |`);
console.log(
  `| page 1, seeking generator | ${yields.seekPage1} | ${us(iter, "seeking iterable page 1").toFixed(1)} |`,
);
console.log(
  `| page ${DEEP}, seeking generator | ${yields.seekPage1000} | ${us(iter, `seeking iterable page ${DEEP}`).toFixed(1)} |`,
);
console.log(
  `| page ${DEEP}, generator read from the start | ${yields.naivePage1000} | ${us(naiveDeepRuns, `iterable page ${DEEP}`).toFixed(1)} |`,
);
console.log(
  `\nreading all ${ITEMS.toLocaleString("en")} items without MCP: ${median(drainMs).toFixed(0)} ms (median of 3)`,
);

/** Fastest, median and slowest round per contender (number arrays would not survive `biome format`). */
const spread = (samples: Samples) =>
  Object.fromEntries(
    [...samples].map(([name, values]) => [
      name,
      { min: round(Math.min(...values)), median: round(median(values)), max: round(Math.max(...values)) },
    ]),
  );
const results = {
  benchmark: "pagination",
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  cpuModel: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  pglite: {
    database,
    rows: ROWS,
    pageSize: PAGE,
    walk: { pages, rows: walked },
    queryPlan: {
      keyset: await plan(keysetAfter, "bench", new Date(0), "", 1),
      offset: await plan(offset, "bench", 1, 0),
    },
    mcp: {
      method: { warmup: 200, rounds: MCP_ROUNDS, callsPerRound: 200 },
      medianUsPerCall: {
        page1: us(mcp, "page 1"),
        page2: us(mcp, "page 2"),
        [`page${DEEP}`]: us(mcp, `page ${DEEP}`),
      },
      medianRatio: {
        [`page${DEEP}ToPage1`]: deepRatio,
        page2ToPage1: secondRatio,
        [`page${DEEP}ToPage2`]: depthRatio,
      },
      goal: { ratio: GOAL, met: deepRatio <= GOAL },
      usPerCallRange: spread(mcp),
    },
    sql: { method: { rounds: SQL_ROUNDS, keysetOpsPerRound: 500, offsetOpsPerRound: 10 }, pages: sql },
  },
  iterable: {
    items: ITEMS,
    pageSize: PAGE,
    yieldedPerPage: yields,
    medianUsPerCall: {
      page1: us(iter, "iterable page 1"),
      seekingPage1: us(iter, "seeking iterable page 1"),
      [`seekingPage${DEEP}`]: us(iter, `seeking iterable page ${DEEP}`),
      [`fromStartPage${DEEP}`]: us(naiveDeepRuns, `iterable page ${DEEP}`),
    },
    drainAllMs: round(median(drainMs)),
  },
};
const dir = new URL("../../bench/results/", import.meta.url); // from .build/bench/
mkdirSync(dir, { recursive: true });
writeFileSync(new URL("pagination.json", dir), `${JSON.stringify(results, null, 2)}\n`);

await Promise.all([articles.close(), events.close()]);
await Promise.all([articlesApp.close(), eventsApp.close()]);
