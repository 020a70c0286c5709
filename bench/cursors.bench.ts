/**
 * What a cursor costs the model (`npm run build && node .build/bench/cursors.bench.js`).
 *
 * A real SDK `Client` walks paginated tools over an in-memory transport with `limit: 1`,
 * so each page hands out one cursor after each key of the walk, and we measure every
 * `nextCursor`: its characters and its o200k tokens (the `TOKEN_COUNTER` default), as a
 * median and a maximum over the walk. Keys:
 *
 * - `id`: the integers 1..10,000;
 * - `slug`: 10,000 slugs of exactly 16 characters (`cache-report-ord`: words and dashes);
 * - `hex`: 10,000 ids of 16 hexadecimal digits (random-looking: they cost tokens themselves);
 * - `(updatedAt, slug)`: a date and a 16-character slug (two values, 24 bytes);
 * - `name`: 1,000 strings of exactly 32 bytes that are not URL-safe (`Ünïcödé …`);
 *
 * each signed, and `id` and `slug` encrypted too (`encryptCursors`). The clock is a manual
 * one and the secret fixed, so the figures do not depend on the machine or the day (an
 * encrypted cursor carries a random nonce: its token counts vary by a token or so).
 * Results also go to bench/results/cursors.json.
 */
import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  BpeTokenCounter,
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
import { quantile } from "./lib/measure.js";

const SECRET = "cursors-bench-secret-0123456789";
const log = (line: string) => process.stderr.write(`${line}\n`);
const counter = new BpeTokenCounter();
const tokensOf = async (text: string) => (await counter.count(text, Number.MAX_SAFE_INTEGER)).tokens;

/** A small deterministic generator (mulberry32), so every run walks the same keys. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const WORDS =
  "cache report order intro model token stream window article site title budget user issue label commit branch release search filter invoice account project update".split(
    " ",
  );

/** `count` distinct strings made by `make`, in code-unit order. */
function distinct(count: number, make: () => string): string[] {
  const seen = new Set<string>();
  while (seen.size < count) seen.add(make());
  return [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const next = random(24);
const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
const SLUGS = distinct(10_000, () =>
  `${pick(WORDS)}-${pick(WORDS)}-${pick(WORDS)}-${pick(WORDS)}`.slice(0, 16),
);
const HEX = distinct(10_000, () =>
  Array.from({ length: 16 }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join(""),
);
const NAMES = distinct(1_000, () => {
  let name = `Ünïcödé ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)}`;
  while (Buffer.byteLength(name) > 32) name = name.slice(0, -1);
  return name.padEnd(name.length + 32 - Buffer.byteLength(name), " ");
});
const SLUG_ROWS = SLUGS.map((slug) => ({ slug }));
const HEX_ROWS = HEX.map((hex) => ({ hex }));
const NAME_ROWS = NAMES.map((name) => ({ name }));
const IDS = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1 }));
const DATED = SLUGS.map((slug, i) => ({ updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 61_000), slug }));

/** The `limit + 1` rows after `ctx.page.after` in a sorted list (binary search on the key). */
function rowsAfter<T>(
  rows: readonly T[],
  ctx: ToolContext,
  isAfter: (row: T, after: Record<string, any>) => boolean,
): T[] {
  const page = ctx.page;
  if (!page) throw new Error("ctx.page is set under @Paginated");
  let low = 0;
  if (page.after !== null) {
    let high = rows.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (isAfter(rows[middle] as T, page.after)) high = middle;
      else low = middle + 1;
    }
  }
  return rows.slice(low, low + page.limit + 1);
}

@McpService()
class KeysService {
  @Tool({ description: "Integer keys" })
  @Paginated("id", { limit: 1 })
  ids(_input: unknown, ctx: ToolContext) {
    return rowsAfter(IDS, ctx, (row, after) => row.id > after.id);
  }

  @Tool({ description: "16-character slugs" })
  @Paginated("slug", { limit: 1 })
  slugs(_input: unknown, ctx: ToolContext) {
    return rowsAfter(SLUG_ROWS, ctx, (row, after) => row.slug > after.slug);
  }

  @Tool({ description: "16 hexadecimal digits" })
  @Paginated("hex", { limit: 1 })
  hex(_input: unknown, ctx: ToolContext) {
    return rowsAfter(HEX_ROWS, ctx, (row, after) => row.hex > after.hex);
  }

  @Tool({ description: "A date and a slug" })
  @Paginated(["updatedAt", "slug"], { limit: 1 })
  dated(_input: unknown, ctx: ToolContext) {
    return rowsAfter(DATED, ctx, (row, after) => row.updatedAt.getTime() > after.updatedAt.getTime());
  }

  @Tool({ description: "32-byte names that are not URL-safe" })
  @Paginated("name", { limit: 1 })
  names(_input: unknown, ctx: ToolContext) {
    return rowsAfter(NAME_ROWS, ctx, (row, after) => row.name > after.name);
  }
}

@McpModule({ services: [KeysService] })
class KeysModule {}

async function connect(app: McpApp): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.connect(serverSide);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

interface Figures {
  key: string;
  encrypted: boolean;
  cursors: number;
  chars: { median: number; max: number };
  tokens: { median: number; max: number };
  example: string;
}

/** Walks `name` to its end with `limit: 1` and measures every cursor it hands out. */
async function walk(client: Client, name: string, key: string, encrypted: boolean): Promise<Figures> {
  const chars: number[] = [];
  const tokens: number[] = [];
  let cursor: string | null = null;
  let example = "";
  do {
    const result = await client.callTool({ name, arguments: cursor ? { cursor } : {} });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    cursor = (result.structuredContent as { nextCursor: string | null }).nextCursor;
    if (cursor) {
      chars.push(cursor.length);
      tokens.push(await tokensOf(cursor));
      if (chars.length === 500) example = cursor;
    }
  } while (cursor);
  const summary = (values: number[]) => ({ median: quantile(values, 0.5), max: Math.max(...values) });
  return { key, encrypted, cursors: chars.length, chars: summary(chars), tokens: summary(tokens), example };
}

const clock = new ManualClock(Date.UTC(2026, 5, 1));
const options = { version: "1.0.0", cursorSecret: SECRET, providers: [{ provide: CLOCK, useValue: clock }] };
const signed = await connect(await McpFactory.create(KeysModule, { name: "signed", ...options }));
const encrypted = await connect(
  await McpFactory.create(KeysModule, { name: "encrypted", encryptCursors: true, ...options }),
);

const results: Figures[] = [];
for (const [name, key] of [
  ["ids", "id 1..10,000"],
  ["slugs", "slug (16 characters)"],
  ["hex", "hex id (16 digits)"],
  ["dated", "(updatedAt, slug)"],
  ["names", "name (32 bytes, not URL-safe)"],
] as const) {
  log(`${key}…`);
  results.push(await walk(signed, name, key, false));
  if (name === "ids" || name === "slugs") results.push(await walk(encrypted, name, key, true));
}

const lines = [
  "| stable key | cursors | characters (median / max) | o200k tokens (median / max) |",
  "|---|---:|---:|---:|",
  ...results.map(
    (r) =>
      `| ${r.key}${r.encrypted ? ", encrypted" : ""} | ${r.cursors.toLocaleString("en")} | ${r.chars.median} / ${r.chars.max} | ${r.tokens.median} / ${r.tokens.max} |`,
  ),
];
console.log(lines.join("\n"));
for (const r of results) log(`${r.key}${r.encrypted ? ", encrypted" : ""}: ${r.example}`);
mkdirSync("bench/results", { recursive: true });
writeFileSync("bench/results/cursors.json", `${JSON.stringify(results, null, 2)}\n`);
process.exit(0);
