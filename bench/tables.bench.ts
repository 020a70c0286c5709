/**
 * bench:tables — what a model reads of typical pages, before (minified JSON of the whole
 * envelope, frugal-mcp's text until issue 24, still `text: "json"`) and after (a table, or
 * the page's `line`s, then the envelope line), against the same rows as CSV; and what shaping
 * a result costs in CPU, before (`JSON.stringify` with a replacer, then `JSON.parse` to build
 * `structuredContent`) and after (one `toJsonValue` walk, then the text: JSON, or a table
 * chosen by counting tokens).
 *
 * 1. Tokens (o200k, exact counts) of each page's text, read through the SDK client from a
 *    real app: a first page (its envelope line holds a cursor) and a last page (none).
 * 2. CPU of shaping alone, per page, median over interleaved rounds.
 * 3. A page call end to end (in-memory SDK client), `text: "auto"` against `text: "json"`.
 */
import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  BpeTokenCounter,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { itemsText } from "../src/results/items-text.js";
import { jsonReplacer, toJsonValue } from "../src/results/json-value.js";
import { envelopeLine, withEnvelopeLine } from "../src/results/table-format.js";
import { median, medianRatio, runInterleaved } from "./lib/measure.js";

const log = (line: string) => process.stderr.write(`${line}\n`);
const counter = new BpeTokenCounter();
await counter.load();
const tokensOf = async (text: string) => (await counter.count(text, Number.MAX_SAFE_INTEGER)).tokens;

// ------------------------------------------------------------------ data
const WORDS =
  "the of and to in for on with api client server cache page token budget stream cursor index search user admin deploy build fix error timeout retry memory leak docs update release".split(
    " ",
  );
let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
const sentence = (n: number) => {
  const text = Array.from({ length: n }, () => pick(WORDS)).join(" ");
  return text[0]?.toUpperCase() + text.slice(1);
};
const day = (i: number) => new Date(Date.UTC(2026, 0, 1 + i, 8 + (i % 9), (i * 7) % 60, (i * 13) % 60));

const N = 45;
const DATASETS = {
  issues3: Array.from({ length: N }, (_, i) => ({
    number: 4200 - i,
    title: sentence(4 + (i % 5)) + (i % 5 === 0 ? ", again" : ""),
    state: i % 4 ? "open" : "closed",
  })),
  articles3: Array.from({ length: N }, (_, i) => ({
    slug: `${pick(WORDS)}-${pick(WORDS)}-${i}`,
    title: sentence(3 + (i % 6)),
    updatedAt: day(i),
  })),
  issues7: Array.from({ length: N }, (_, i) => ({
    id: 90000 + i,
    number: 4200 - i,
    title: sentence(5 + (i % 4)) + (i % 5 === 0 ? ", again" : ""),
    state: i % 4 ? "open" : "closed",
    author: pick(["alice", "bob", "carol_dev", "dave99"]),
    updatedAt: day(i),
    comments: i % 7,
  })),
  metrics3: Array.from({ length: N }, (_, i) => ({
    host: `web-${(i % 4) + 1}`,
    cpu: Math.round(random() * 10000) / 100,
    memBytes: Math.floor(random() * 8e9),
  })),
  tags3: Array.from({ length: N }, (_, i) => ({
    id: i + 1,
    name: sentence(2),
    tags: [pick(WORDS), pick(WORDS)],
  })),
  logs4: Array.from({ length: N }, (_, i) => ({
    seq: 100200 + i,
    at: new Date(Date.UTC(2026, 2, 1, 12, 0, i)).toISOString(),
    level: pick(["INFO", "WARN", "ERROR", "DEBUG"]),
    message: `${sentence(6 + (i % 5))}: user=${pick(["alice", "bob"])} ms=${Math.floor(random() * 900)}`,
  })),
};
type Name = keyof typeof DATASETS;
const logLine = (e: (typeof DATASETS.logs4)[number]) => `${e.at} ${e.level} ${e.message}`;

function rowsAfter(rows: readonly Record<string, unknown>[], key: string, ctx: ToolContext) {
  const last = ctx.page?.after?.[key];
  const start = last === undefined ? 0 : rows.findIndex((row) => row[key] === last) + 1;
  return rows.slice(start, start + (ctx.page?.limit ?? 20) + 1);
}

let liveCalls = 0;

@McpService()
class PagesService {
  @Tool({ input: {} })
  @Paginated("number", { limit: 20, order: "desc" })
  issues3(_i: unknown, ctx: ToolContext) {
    return rowsAfter(DATASETS.issues3, "number", ctx);
  }
  @Tool({ input: {} })
  @Paginated("slug", { limit: 20 })
  articles3() {
    return DATASETS.articles3;
  }
  @Tool({ input: {} })
  @Paginated("id", { limit: 20 })
  issues7(_i: unknown, ctx: ToolContext) {
    return rowsAfter(DATASETS.issues7, "id", ctx);
  }
  @Tool({ input: {} })
  @Paginated(["host", "cpu"], { limit: 20 })
  metrics3() {
    return DATASETS.metrics3;
  }
  @Tool({ input: {} })
  @Paginated("id", { limit: 20 })
  tags3(_i: unknown, ctx: ToolContext) {
    return rowsAfter(DATASETS.tags3, "id", ctx);
  }
  @Tool({ input: {} })
  @Paginated("seq", { limit: 20 })
  logs4(_i: unknown, ctx: ToolContext) {
    return rowsAfter(DATASETS.logs4, "seq", ctx);
  }
  /** The 20×7 page, one title changed on every call: a counter's memo never answers. */
  @Tool({ input: {} })
  @Paginated("id", { limit: 20 })
  live() {
    liveCalls++;
    return DATASETS.issues7.map((row, i) => (i === 0 ? { ...row, title: `${row.title} ${liveCalls}` } : row));
  }
  @Tool({ input: {} })
  @Paginated("seq", { limit: 20, line: logLine })
  logs4Lines(_i: unknown, ctx: ToolContext) {
    return rowsAfter(DATASETS.logs4, "seq", ctx);
  }
}

@McpModule({ services: [PagesService] })
class PagesModule {}

async function connect(text: "auto" | "json"): Promise<Client> {
  const app = await McpFactory.create(PagesModule, {
    name: "tables-bench",
    version: "1.0.0",
    cursorSecret: "tables-bench-secret-0123456789",
    text,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.connect(serverSide);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

type Envelope = { items: Array<Record<string, unknown>>; nextCursor: string | null };
const textOf = (result: Record<string, unknown>) =>
  ((result.content as Array<{ text?: string }>)[0]?.text ?? "") as string;

/** The rows as CSV (RFC 4180 quoting), values as JSON would give them. */
function csvOf(items: readonly Record<string, unknown>[]): string {
  const fields = Object.keys(items[0] ?? {});
  const cell = (value: unknown) => {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [fields.join(","), ...items.map((item) => fields.map((f) => cell(item[f])).join(","))].join("\n");
}

// ------------------------------------------------------------------ 0. which delimiter
/**
 * The same 20 rows written in candidate forms, each quoting a cell that holds its delimiter,
 * a quote or a line break (as a JSON string), arrays and objects as compact JSON.
 */
function delimited(items: readonly Record<string, unknown>[], delimiter: string, frame = false): string {
  const fields = Object.keys(items[0] ?? {});
  const cell = (value: unknown) => {
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return text.includes(delimiter.trim() || delimiter) || /["\n\r]/.test(text) ? JSON.stringify(text) : text;
  };
  const line = (cells: string[]) => (frame ? `| ${cells.join(" | ")} |` : cells.join(delimiter));
  return [line(fields), ...items.map((item) => line(fields.map((f) => cell(item[f]))))].join("\n");
}
const FORMS: Record<string, (items: readonly Record<string, unknown>[]) => string> = {
  json: (items) => JSON.stringify(items),
  "csv (RFC 4180)": csvOf,
  "tsv (chosen)": (items) => delimited(items, "\t"),
  pipe: (items) => delimited(items, "|"),
  "spaced pipe": (items) => delimited(items, " | "),
  "markdown table": (items) => delimited(items, " | ", true),
};
const formRows: Array<Record<string, string | number>> = [];
for (const [name, rows] of Object.entries(DATASETS)) {
  const items = toJsonValue(rows.slice(0, 20)) as Array<Record<string, unknown>>;
  const csv = await tokensOf(csvOf(items));
  const row: Record<string, string | number> = { rows: `${name} 20×${Object.keys(items[0] ?? {}).length}` };
  for (const [form, write] of Object.entries(FORMS)) {
    const tokens = await tokensOf(write(items));
    row[form] = `${tokens} (${(tokens / csv).toFixed(2)})`;
  }
  formRows.push(row);
}

// ------------------------------------------------------------------ 1. tokens
const lean = await connect("auto");
const json = await connect("json");
const tokenRows: Array<Record<string, string | number>> = [];
const pages = [...Object.keys(DATASETS), "logs4Lines"] as Array<Name | "logs4Lines">;
/** The first page of a walk, or its last. */
async function pageAt(client: Client, tool: string, which: "first" | "last") {
  let result = await client.callTool({ name: tool, arguments: {} });
  for (;;) {
    const { nextCursor } = result.structuredContent as Envelope;
    if (which === "first" || !nextCursor) return result;
    result = await client.callTool({ name: tool, arguments: { cursor: nextCursor } });
  }
}
for (const name of pages) {
  const tool = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  for (const which of ["first", "last"] as const) {
    const after = await pageAt(lean, tool, which);
    // A page of `line`s was JSON before: the JSON client answers the same page without them.
    const before = await pageAt(json, tool.replace("_lines", ""), which);
    const envelope = after.structuredContent as Envelope;
    const items = envelope.items;
    const afterText = textOf(after);
    const csv = await tokensOf(csvOf(items));
    const line = afterText.includes("\n\n") ? afterText.slice(afterText.indexOf("\n\n") + 2) : "";
    const cursorTokens = envelope.nextCursor ? await tokensOf(envelope.nextCursor) : 0;
    const fields = Object.keys(items[0] ?? {}).length;
    const row = {
      page: `${name} ${items.length}×${fields}, ${which}`,
      before: await tokensOf(textOf(before)),
      after: await tokensOf(afterText),
      csv,
      envelopeLine: line ? await tokensOf(line) : 0,
      cursor: cursorTokens,
    };
    tokenRows.push({
      ...row,
      saved: `${Math.round((1 - row.after / row.before) * 100)} %`,
      afterToCsv: Number((row.after / csv).toFixed(3)),
      itemsToCsv: Number(((row.after - row.envelopeLine) / csv).toFixed(3)),
    });
  }
}

// ------------------------------------------------------------------ 2. CPU of shaping
function envelopeOf(rows: readonly Record<string, unknown>[], n: number) {
  return { items: rows.slice(0, n), nextCursor: "v1.k1.AbCdEfGhIjKlMnOpQrStUvWx", hasMore: true, count: n };
}
const articles100 = Array.from({ length: 100 }, (_, i) => ({
  ...DATASETS.articles3[i % N],
  slug: `s-${i}`,
}));
const CASES = {
  "page 20×3 (dates)": envelopeOf(DATASETS.articles3, 20),
  "page 20×7 (dates)": envelopeOf(DATASETS.issues7, 20),
  "page 100×3 (dates)": envelopeOf(articles100, 100),
};
const limit = 2000;
/** Before: the text with a replacer, read back for structuredContent. */
const before = (value: unknown) => {
  const text = JSON.stringify(value, jsonReplacer);
  return { text, structured: JSON.parse(text) };
};
/** After, `text: "json"`: one walk, then the plain (fast-path) JSON text. */
const afterJson = (value: unknown) => {
  const structured = toJsonValue(value);
  return { text: JSON.stringify(structured), structured };
};
/** After, `text: "auto"`: one walk, then the table chosen by counting. */
const afterAuto = async (value: unknown, counting: BpeTokenCounter) => {
  const structured = toJsonValue(value) as { items: unknown[]; count: number } & Record<string, unknown>;
  const { items, count: _count, ...position } = structured;
  const body = await itemsText(items as never, { counter: counting, limit });
  return { text: withEnvelopeLine(body, envelopeLine(position as never)), structured };
};
const warm = new BpeTokenCounter();
await warm.load();
/**
 * Each operation changes one title, so that the counter's memo of recent texts never
 * answers (a real walk's pages differ): "auto" then pays for counting in full. "auto
 * (memo)" shapes the same page again and again (a re-read page, a cached tool's repeat).
 */
let serial = 0;
const fresh = <T extends { items: Array<Record<string, unknown>> }>(value: T): T => {
  const first = { ...value.items[0], title: `${String(value.items[0]?.title)} ${serial++}` };
  return { ...value, items: [first, ...value.items.slice(1)] };
};
const cpuRows: Array<Record<string, string | number>> = [];
for (const [label, value] of Object.entries(CASES)) {
  const OPS = label.includes("100") ? 100 : 400;
  const samples = await runInterleaved(
    [
      { name: "plain JSON.stringify", once: async () => JSON.stringify(fresh(value)) },
      { name: "before", once: async () => before(fresh(value)) },
      { name: "after json", once: async () => afterJson(fresh(value)) },
      { name: "after auto", once: () => afterAuto(fresh(value), warm) },
      { name: "after auto (memo)", once: () => afterAuto(value, warm) },
    ],
    { warmup: 200, rounds: 15, opsPerRound: OPS },
  );
  const us = (name: string) => Number(median(samples.get(name) ?? []).toFixed(1));
  cpuRows.push({
    case: label,
    plainStringifyUs: us("plain JSON.stringify"),
    beforeUs: us("before"),
    afterJsonUs: us("after json"),
    afterAutoUs: us("after auto"),
    afterAutoMemoUs: us("after auto (memo)"),
    beforeToPlain: Number(medianRatio(samples, "before", "plain JSON.stringify").toFixed(2)),
    afterJsonToBefore: Number(medianRatio(samples, "after json", "before").toFixed(2)),
    afterAutoToBefore: Number(medianRatio(samples, "after auto", "before").toFixed(2)),
  });
  log(`cpu ${label} done`);
}

// ------------------------------------------------------------------ 3. a page call end to end
const call = (client: Client) => () => client.callTool({ name: "live", arguments: {} });
const e2e = await runInterleaved(
  [
    { name: "auto", once: call(lean) },
    { name: "json", once: call(json) },
  ],
  { warmup: 300, rounds: 15, opsPerRound: 200 },
);
const callRow = {
  autoUs: Number(median(e2e.get("auto") ?? []).toFixed(1)),
  jsonUs: Number(median(e2e.get("json") ?? []).toFixed(1)),
  autoToJson: Number(medianRatio(e2e, "auto", "json").toFixed(3)),
};

// ------------------------------------------------------------------ report
const table = (rows: Array<Record<string, string | number>>) => {
  const heads = Object.keys(rows[0] ?? {});
  return [
    `| ${heads.join(" | ")} |`,
    `|${heads.map(() => "---").join("|")}|`,
    ...rows.map((r) => `| ${heads.map((h) => r[h]).join(" | ")} |`),
  ].join("\n");
};
console.log("### The same 20 rows in candidate forms (o200k tokens, and their ratio to CSV)\n");
console.log(table(formRows));
console.log("\n### Tokens of a page's text (o200k)\n");
console.log(table(tokenRows));
console.log("\n### CPU of shaping one result (µs, median of 15 interleaved rounds)\n");
console.log(table(cpuRows));
console.log("\n### A 20×7 page call end to end, in-memory SDK client, a new page every call (µs)\n");
console.log(table([callRow]));
mkdirSync(new URL("../../bench/results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL("../../bench/results/tables.json", import.meta.url),
  `${JSON.stringify({ node: process.version, forms: formRows, tokens: tokenRows, cpu: cpuRows, call: callRow }, null, 2)}\n`,
);
process.exit(0);
