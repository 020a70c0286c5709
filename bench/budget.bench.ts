/**
 * bench:budget — the cost of a budget decision, how close the reported size is, and the
 * cost of @Budget on an ordinary call.
 *
 * 1. The decision for a 100 KB and a 10 MB JSON payload against a 2,000-token budget,
 *    after serialization (reported separately), with the default BpeTokenCounter: it
 *    counts a prefix and stops past the budget, so it should cost O(budget), not
 *    O(payload). The naive full count of the same text is shown for comparison. Then
 *    the same decision plus the estimate of the whole size that OUTPUT_BUDGET_EXCEEDED
 *    reports (`countResult` on the shaped result, a fresh counter each time so that no
 *    sample is answered from its memo).
 * 2. The error of that estimate against the real o200k count on five payload shapes
 *    (a JSON array of objects, prose, one long base64 line, code, and a JSON envelope
 *    whose first 30,000 characters are prose) at about 150 KB and 10 MB, next to what the
 *    counted prefix alone would extrapolate to.
 * 3. The error of the chars/4 estimate against real o200k and cl100k counts on JSON.
 * 4. A tool returning a ~2 KB result, with and without @Budget(2000), through the SDK
 *    client over InMemoryTransport (interleaved rounds, median of per-round ratios).
 */
import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { BpeTokenCounter, Budget, McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { countResult } from "../src/budget/count-result.js";
import { median, medianRatio, runInterleaved } from "./lib/measure.js";

const BUDGET = 2000;
// Decisions timed per payload (after WARMUP untimed ones): the median is what is reported.
const DECISIONS = 101;
const WARMUP = 25;

function rows(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: i,
    slug: `post-${i}`,
    title: `Article number ${i} about keyset pagination`,
    updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    tags: ["mcp", i % 2 ? "cache" : "budget"],
    premium: i % 3 === 0,
  }));
}

function payloadOf(bytes: number): unknown[] {
  const one = JSON.stringify(rows(1)[0]).length + 1;
  return rows(Math.ceil(bytes / one));
}

async function timeMs(run: () => unknown, times: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = process.hrtime.bigint();
    await run();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(samples);
}

/**
 * The decision alone (`counter.count(text, BUDGET)`) and the decision with the estimate
 * (`countResult` on `text` as one text block, with a fresh counter each time so that no
 * sample is answered from its memo), timed in alternation after a GC and WARMUP rounds,
 * so that load on the machine weighs on both alike: medians in ms.
 */
async function decisionTimes(text: string): Promise<{ decisionMs: number; estimateMs: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const shaped = { content: [{ type: "text", text }] };
  const counter = new BpeTokenCounter();
  await counter.load();
  const decision: number[] = [];
  const estimate: number[] = [];
  for (let i = 0; i < DECISIONS + WARMUP; i++) {
    let start = process.hrtime.bigint();
    await counter.count(text, BUDGET);
    const decided = Number(process.hrtime.bigint() - start) / 1e6;
    const fresh = new BpeTokenCounter();
    await fresh.load();
    start = process.hrtime.bigint();
    await countResult(shaped, fresh, BUDGET);
    const estimated = Number(process.hrtime.bigint() - start) / 1e6;
    if (i < WARMUP) continue;
    decision.push(decided);
    estimate.push(estimated);
  }
  return { decisionMs: median(decision), estimateMs: median(estimate) };
}

async function decisions() {
  const counter = new BpeTokenCounter();
  await counter.load();
  const results = [];
  for (const [label, bytes] of [
    ["100 KB", 100 * 1024],
    ["10 MB", 10 * 1024 * 1024],
  ] as const) {
    const payload = payloadOf(bytes);
    const serializeMs = await timeMs(() => JSON.stringify(payload), 5);
    const text = JSON.stringify(payload);
    const { decisionMs, estimateMs } = await decisionTimes(text);
    const decision = await counter.count(text, BUDGET);
    const fullMs = await timeMs(
      () => counter.count(text, Number.MAX_SAFE_INTEGER),
      label === "10 MB" ? 2 : 5,
    );
    const full = await counter.count(text, Number.MAX_SAFE_INTEGER);
    results.push({
      label,
      bytes: text.length,
      serializeMs,
      decisionMs,
      estimateMs,
      over: decision.tokens > BUDGET,
      fullMs,
      fullTokens: full.tokens,
    });
  }
  return results;
}

// Deterministic pseudo-random numbers (a linear congruential generator), so every run sees the same payloads.
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

const WORDS = (
  "the a of to and in is that for it as with was on be by this are or from at which an have not " +
  "server model token budget result page cursor cache resource client request answer stage count " +
  "narrow larger smaller returns reads stops counts stores pipeline decorator payload estimate"
).split(" ");

function prose(chars: number): string {
  const next = random(7);
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const words = Array.from(
      { length: 5 + Math.floor(next() * 18) },
      () => WORDS[Math.floor(next() * WORDS.length)],
    );
    const sentence = `${words.join(" ")}${next() < 0.15 ? ",\n\n" : ". "}`;
    parts.push(sentence[0].toUpperCase() + sentence.slice(1));
    length += sentence.length;
  }
  return parts.join("");
}

function base64(chars: number): string {
  const next = random(11);
  return Buffer.from(Array.from({ length: Math.ceil((chars * 3) / 4) }, () => Math.floor(next() * 256)))
    .toString("base64")
    .slice(0, chars);
}

function code(chars: number): string {
  const lines: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const line =
      i % 4 === 0
        ? `export async function handler${i}(input: { id: number; limit?: number }, ctx: ToolContext) {`
        : i % 4 === 1
          ? `  const rows = await ctx.db.query("select * from items where id > $1 limit $2", [input.id, input.limit ?? ${i % 100}]);`
          : i % 4 === 2
            ? `  // keep page ${i} within the budget: ${i * 37} rows at most`
            : "  return rows.map((row) => ({ ...row, score: row.score * 2 }));\n}";
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}

const SHAPES: ReadonlyArray<readonly [string, (bytes: number) => string]> = [
  ["JSON array of objects", (bytes) => JSON.stringify(payloadOf(bytes))],
  ["prose", (bytes) => prose(bytes)],
  ["one base64 line", (bytes) => base64(bytes)],
  ["code", (bytes) => code(bytes)],
  [
    "JSON with a 30 KB prose preamble",
    (bytes) => JSON.stringify({ summary: prose(30_000), rows: payloadOf(bytes) }),
  ],
];

/**
 * The decision alone and with the estimate on each shape at 10 MB. Timed before any full
 * count of these payloads: counting millions of varied tokens churns gpt-tokenizer's
 * merge cache (a 100,000-entry Map evicted first in, first out), which slows every count
 * after it for a while.
 */
async function shapeTimings() {
  const results = new Map<string, { decisionMs: number; estimateMs: number }>();
  for (const [shape, make] of SHAPES) {
    results.set(shape, await decisionTimes(make(10 * 1024 * 1024)));
  }
  return results;
}

/** The estimate OUTPUT_BUDGET_EXCEEDED reports, against the real count, per shape and size. */
async function estimates(timed: Map<string, { decisionMs: number; estimateMs: number }>) {
  const counter = new BpeTokenCounter();
  await counter.load();
  const results = [];
  for (const [label, bytes] of [
    ["150 KB", 150 * 1024],
    ["10 MB", 10 * 1024 * 1024],
  ] as const) {
    for (const [shape, make] of SHAPES) {
      const text = make(bytes);
      const real = (await counter.count(text, Number.MAX_SAFE_INTEGER)).tokens;
      const reported = await countResult(
        { content: [{ type: "text", text }] },
        new BpeTokenCounter(),
        BUDGET,
      );
      const prefix = await counter.count(text, BUDGET);
      const prefixOnly = Math.round((prefix.tokens / (prefix.consumed ?? Number.NaN)) * text.length);
      results.push({
        size: label,
        shape,
        chars: text.length,
        real,
        reported: reported.tokens,
        estimated: reported.estimated === true,
        error: reported.tokens / real - 1,
        prefixOnly,
        prefixOnlyError: prefixOnly / real - 1,
        ...(label === "10 MB" ? timed.get(shape) : {}),
      });
    }
  }
  return results;
}

async function estimateError() {
  const o200k = new BpeTokenCounter({ encoding: "o200k_base" });
  const cl100k = new BpeTokenCounter({ encoding: "cl100k_base" });
  const text = JSON.stringify(payloadOf(200 * 1024));
  const estimate = Math.ceil(text.length / 4);
  const count = async (c: BpeTokenCounter) => (await c.count(text, Number.MAX_SAFE_INTEGER)).tokens;
  const real = { o200k: await count(o200k), cl100k: await count(cl100k) };
  return {
    estimate,
    o200k: real.o200k,
    cl100k: real.cl100k,
    undercountO200k: 1 - estimate / real.o200k,
    undercountCl100k: 1 - estimate / real.cl100k,
  };
}

let call = 0;

@McpService()
class ReportService {
  private readonly result = rows(14);

  @Tool()
  plain() {
    return { rows: this.result, call: call++ };
  }

  @Tool()
  @Budget(BUDGET)
  budgeted() {
    // A counter in every result keeps the token counter's memo out of the measurement.
    return { rows: this.result, call: call++ };
  }

  @Tool()
  @Budget(BUDGET)
  budgetedRepeated() {
    return { rows: this.result };
  }
}

@McpModule({ services: [ReportService] })
class ReportModule {}

async function callOverhead() {
  const app = await McpFactory.create(ReportModule, { name: "bench", version: "1" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.connect(serverSide);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(clientSide);
  const size = JSON.stringify(
    (await client.callTool({ name: "plain", arguments: {} })).structuredContent,
  ).length;
  const samples = await runInterleaved(
    [
      { name: "plain", once: () => client.callTool({ name: "plain", arguments: {} }) },
      { name: "budgeted", once: () => client.callTool({ name: "budgeted", arguments: {} }) },
      { name: "repeated", once: () => client.callTool({ name: "budgeted_repeated", arguments: {} }) },
    ],
    { warmup: 500, rounds: 41, opsPerRound: 300 },
  );
  await client.close();
  await app.close();
  return {
    resultBytes: size,
    plainUs: median(samples.get("plain") ?? []),
    budgetedUs: median(samples.get("budgeted") ?? []),
    repeatedUs: median(samples.get("repeated") ?? []),
    ratio: medianRatio(samples, "budgeted", "plain"),
    repeatedRatio: medianRatio(samples, "repeated", "plain"),
  };
}

// In this order: counting much varied text churns gpt-tokenizer's merge cache (see
// shapeTimings), which would slow the measurements that come after it.
const decided = await decisions();
const error = await estimateError();
const overhead = await callOverhead();
const timed = await shapeTimings();
const estimated = await estimates(timed);

console.log(
  "| payload | bytes | serialize (ms) | decision (ms) | decision + estimate (ms) | over budget | full count (ms) | tokens |",
);
console.log("|---|---:|---:|---:|---:|---|---:|---:|");
for (const d of decided) {
  console.log(
    `| ${d.label} | ${d.bytes} | ${d.serializeMs.toFixed(2)} | ${d.decisionMs.toFixed(3)} | ${d.estimateMs.toFixed(3)} | ${d.over} | ${d.fullMs.toFixed(1)} | ${d.fullTokens} |`,
  );
}
const percent = (x: number) => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(1)} %`;
console.log(
  "\n| size | shape | characters | real tokens | reported | error | prefix only | its error | decision (ms) | decision + estimate (ms) |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const e of estimated) {
  console.log(
    `| ${e.size} | ${e.shape} | ${e.chars} | ${e.real} | ${e.reported}${e.estimated ? " (estimated)" : ""} | ${percent(e.error)} | ${e.prefixOnly} | ${percent(e.prefixOnlyError)} | ${e.decisionMs?.toFixed(3) ?? ""} | ${e.estimateMs?.toFixed(3) ?? ""} |`,
  );
}
console.log(
  `\nchars/4 estimate ${error.estimate} vs o200k ${error.o200k} (${(error.undercountO200k * 100).toFixed(1)}% under) and cl100k ${error.cl100k} (${(error.undercountCl100k * 100).toFixed(1)}% under)`,
);
console.log(
  `\n@Budget(${BUDGET}) on a ${overhead.resultBytes}-byte result: ${overhead.budgetedUs.toFixed(1)} µs vs ${overhead.plainUs.toFixed(1)} µs without (ratio ${overhead.ratio.toFixed(3)}); the same result again (memoized count): ${overhead.repeatedUs.toFixed(1)} µs (ratio ${overhead.repeatedRatio.toFixed(3)})`,
);
mkdirSync(new URL("../../bench/results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL("../../bench/results/budget.json", import.meta.url),
  JSON.stringify({ decided, estimated, error, overhead }, null, 2),
);
