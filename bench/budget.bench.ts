/**
 * bench:budget — the cost of a budget decision, and of @Budget on an ordinary call.
 *
 * 1. The decision for a 100 KB and a 10 MB JSON payload against a 2,000-token budget,
 *    after serialization (reported separately), with the default BpeTokenCounter: it
 *    counts a prefix and stops past the budget, so it should cost O(budget), not
 *    O(payload). The naive full count of the same text is shown for comparison.
 * 2. The error of the chars/4 estimate against real o200k and cl100k counts on JSON.
 * 3. A tool returning a ~2 KB result, with and without @Budget(2000), through the SDK
 *    client over InMemoryTransport (interleaved rounds, median of per-round ratios).
 */
import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { BpeTokenCounter, Budget, McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { median, medianRatio, runInterleaved } from "./lib/measure.js";

const BUDGET = 2000;

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
    const decisionMs = await timeMs(() => counter.count(text, BUDGET), 25);
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
      over: decision.tokens > BUDGET,
      fullMs,
      fullTokens: full.tokens,
    });
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

const decided = await decisions();
const error = await estimateError();
const overhead = await callOverhead();

console.log("| payload | bytes | serialize (ms) | decision (ms) | over budget | full count (ms) | tokens |");
console.log("|---|---:|---:|---:|---|---:|---:|");
for (const d of decided) {
  console.log(
    `| ${d.label} | ${d.bytes} | ${d.serializeMs.toFixed(2)} | ${d.decisionMs.toFixed(3)} | ${d.over} | ${d.fullMs.toFixed(1)} | ${d.fullTokens} |`,
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
  JSON.stringify({ decided, error, overhead }, null, 2),
);
