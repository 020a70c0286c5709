/**
 * What `@Cached` costs and saves (`npm run bench:cache`).
 *
 * Every call is a real SDK `Client.callTool` over `InMemoryTransport.createLinkedPair()`,
 * so it pays for the whole JSON-RPC round trip and the whole frugal-mcp pipeline
 * (validate → cache → shape), schema checks on both sides included.
 *
 * (a) An in-memory hit (the default `LruCache`) of `cached_echo({ text })` against a bare
 *     SDK `McpServer` answering the same trivial `echo` tool (and, for reference, an
 *     uncached frugal-mcp `echo`, and a second bare server whose ratio is the noise
 *     floor). 2,000 warm-up calls each, one full GC, then 101 rounds of 2,000 sequential
 *     calls per contender in rotating order (bench/lib/measure.ts).
 *     Reported: median µs/call over rounds, and the median of per-round ratios.
 *     Goal: hit / bare ≤ 1.3.
 * (b) A `RedisCache` hit against what it cannot avoid: one raw ioredis `GET` of the very
 *     entry the cache stored, then the bare SDK call. 500 warm-up, 101 rounds of 500.
 *     Goal: hit / (GET + bare) ≤ 1.5. Keys use a random prefix and are deleted at the end
 *     with SCAN … MATCH (never KEYS or FLUSH*).
 * (c) 100 concurrent identical calls of a cached tool whose handler takes 50 ms, on a
 *     cold key, 5 times (in memory and on Redis): the handler must run once per burst.
 * (d) Fail-open: a `RedisCache` pointed at a dead port (redis://127.0.0.1:1). A tool whose
 *     handler sleeps 20 ms is called 15 times; each call's time is compared with the time
 *     its handler measured itself. Goal: median call ≤ median handler + 300 ms.
 *
 * Prints a markdown table, writes bench/results/cache.json, and writes the section
 * "Caching (bench:cache)" of BENCHMARKS.md (other sections are left alone).
 */
import "reflect-metadata";
import { randomBytes } from "node:crypto";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CACHE,
  Cached,
  LOGGER,
  type Logger,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  RedisCache,
  Tool,
} from "frugal-mcp";
import { Redis } from "ioredis";
import { z } from "zod";
import { type Contender, median, medianRatio, runInterleaved, type Samples } from "./lib/measure.js";
import { REDIS_URL, redisVersion, scanKeys } from "./lib/redis.js";
import { describeMachine, machine, upsertSection, writeResults } from "./lib/report.js";

const DEAD_REDIS = "redis://127.0.0.1:1";
const PREFIX = `frugal-bench:cache:${randomBytes(6).toString("hex")}:`;
// Short rounds, many of them: this kind of VM changes speed by up to 2× within seconds, and
// only contenders timed within the same fraction of a second compare fairly (see BENCHMARKS.md).
const MEMORY = { warmup: 2_000, rounds: 101, opsPerRound: 2_000 };
const REDIS = { warmup: 500, rounds: 101, opsPerRound: 500 };
const BURST = 100;
const BURSTS = 5;
const SLOW_MS = 50;
const FAIL_OPEN_CALLS = 15;
const WORK_MS = 20;
const GOALS = { memoryHit: 1.3, redisHit: 1.5, burstHandlerCalls: 1, failOpenExtraMs: 300 };

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const progress = (label: string, rounds: number) => (round: number, perOp: ReadonlyMap<string, number>) =>
  log(
    `${label} ${round + 1}/${rounds}: ${[...perOp].map(([n, us]) => `${n} ${us.toFixed(1)} µs`).join(", ")}`,
  );

/** Handler runs, by tool, and the time each `work` call took inside its handler. */
const runs = { cachedEcho: 0, slow: 0, work: 0 };
const workMs: number[] = [];

@McpService()
class BenchService {
  @Tool({ input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({ input: { text: z.string() } })
  @Cached({ ttl: 3_600_000 })
  cachedEcho({ text }: { text: string }) {
    runs.cachedEcho++;
    return text;
  }

  @Tool({ input: { key: z.string() } })
  @Cached({ ttl: 3_600_000 })
  async slow({ key }: { key: string }) {
    runs.slow++;
    await sleep(SLOW_MS);
    return key;
  }

  @Tool({ input: { n: z.number().int() } })
  @Cached({ ttl: 3_600_000 })
  async work({ n }: { n: number }) {
    const started = performance.now();
    runs.work++;
    await sleep(WORK_MS);
    workMs.push(performance.now() - started);
    return `work ${n}`;
  }
}

@McpModule({ services: [BenchService] })
class BenchModule {}

/** Counts what the app logs, so a dead Redis does not flood stderr with one error per call. */
class CountingLogger implements Logger {
  errors = 0;
  debug() {}
  info() {}
  warn() {}
  error() {
    this.errors++;
  }
}

function bareServer(): McpServer {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}

async function connect(serve: (transport: Transport) => Promise<void>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serve(serverSide);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

/** A contender that calls `name({ text: "hello" })` and checks the answer once up front. */
async function echoContender(name: string, client: Client, tool: string, before?: () => Promise<unknown>) {
  const call = () => client.callTool({ name: tool, arguments: { text: "hello" } });
  const once = before
    ? async () => {
        await before();
        return call();
      }
    : call;
  const check = (await once()) as { content: Array<{ text?: string }> };
  if (check.content[0]?.text !== "hello")
    throw new Error(`${name}: unexpected result ${JSON.stringify(check)}`);
  return { name, once } satisfies Contender;
}

const us = (samples: Samples, name: string) => median(samples.get(name) ?? []);
const closers: Array<() => Promise<unknown>> = [];

// ---- (a) in-memory hit ------------------------------------------------------------------
const bare = bareServer();
const control = bareServer();
const memoryApp = await McpFactory.create(BenchModule, { name: "frugal", version: "1.0.0" });
closers.push(
  () => bare.close(),
  () => control.close(),
  () => memoryApp.close(),
);
const bareClient = await connect((t) => bare.connect(t));
const controlClient = await connect((t) => control.connect(t));
const memoryClient = await connect((t) => memoryApp.connect(t));
closers.unshift(
  () => bareClient.close(),
  () => controlClient.close(),
  () => memoryClient.close(),
);

log("(a) in-memory @Cached hit vs bare SDK call");
const memorySamples = await runInterleaved(
  [
    await echoContender("bare", bareClient, "echo"),
    await echoContender("control", controlClient, "echo"),
    await echoContender("frugal", memoryClient, "echo"),
    await echoContender("hit", memoryClient, "cached_echo"),
  ],
  { ...MEMORY, onRound: progress("(a) round", MEMORY.rounds) },
);
if (runs.cachedEcho !== 1)
  throw new Error(`(a) cached_echo ran ${runs.cachedEcho} times; every call but the first should hit`);
const memory = {
  usPerCall: {
    bare: us(memorySamples, "bare"),
    control: us(memorySamples, "control"),
    frugal: us(memorySamples, "frugal"),
    hit: us(memorySamples, "hit"),
  },
  ratioToBare: {
    control: medianRatio(memorySamples, "control", "bare"),
    frugal: medianRatio(memorySamples, "frugal", "bare"),
    hit: medianRatio(memorySamples, "hit", "bare"),
  },
  hits: memoryApp.stats().cache.hits,
};

// ---- (c) in memory: 100 concurrent identical misses ------------------------------------
async function bursts(label: string, app: McpApp, client: Client) {
  const handlerCalls: number[] = [];
  const burstMs: number[] = [];
  const before = app.stats().cache.coalesced;
  for (let b = 0; b < BURSTS; b++) {
    const key = `${label}-${b}-${randomBytes(4).toString("hex")}`;
    const runsBefore = runs.slow;
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: BURST }, () => client.callTool({ name: "slow", arguments: { key } })),
    );
    burstMs.push(performance.now() - started);
    handlerCalls.push(runs.slow - runsBefore);
    if (results.some((r) => r.isError)) throw new Error(`(c) ${label}: a call of the burst failed`);
  }
  log(`(c) ${label}: handler calls per burst ${handlerCalls.join(", ")}`);
  return {
    handlerCalls,
    maxHandlerCalls: Math.max(...handlerCalls),
    medianBurstMs: median(burstMs),
    coalesced: app.stats().cache.coalesced - before,
  };
}
const memoryBursts = await bursts("memory", memoryApp, memoryClient);

// ---- (b) Redis hit, and (c) on Redis ------------------------------------------------------
const redisServer = await redisVersion();
let redis:
  | { usPerCall: Record<string, number>; ratio: number; hits: number; entryKey: string; samples: Samples }
  | undefined;
let redisBursts: Awaited<ReturnType<typeof bursts>> | undefined;
if (redisServer === undefined) {
  log(`(b) skipped: Redis at ${REDIS_URL} did not answer`);
} else {
  const raw = new Redis(REDIS_URL);
  const redisApp = await McpFactory.create(BenchModule, {
    name: "frugal-redis",
    version: "1.0.0",
    providers: [{ provide: CACHE, useFactory: () => new RedisCache({ url: REDIS_URL, prefix: PREFIX }) }],
  });
  const redisClient = await connect((t) => redisApp.connect(t));
  try {
    log("(b) RedisCache hit vs ioredis GET + bare SDK call");
    const runsBefore = runs.cachedEcho;
    const hit = await echoContender("hit", redisClient, "cached_echo");
    const entryKey = (await scanKeys(raw, `${PREFIX}e:`))[0];
    if (!entryKey) throw new Error("(b) the RedisCache stored no entry");
    const samples = await runInterleaved(
      [await echoContender("get+bare", bareClient, "echo", () => raw.get(entryKey)), hit],
      { ...REDIS, onRound: progress("(b) round", REDIS.rounds) },
    );
    if (runs.cachedEcho - runsBefore !== 1) throw new Error("(b) cached_echo ran more than once on Redis");
    redis = {
      usPerCall: { getPlusBare: us(samples, "get+bare"), hit: us(samples, "hit") },
      ratio: medianRatio(samples, "hit", "get+bare"),
      hits: redisApp.stats().cache.hits,
      entryKey,
      samples,
    };
    redisBursts = await bursts("redis", redisApp, redisClient);
  } finally {
    await redisClient.close();
    await redisApp.close();
    const keys = await scanKeys(raw, PREFIX);
    if (keys.length > 0) await raw.del(...keys);
    log(`deleted ${keys.length} bench keys under ${PREFIX}`);
    raw.disconnect();
  }
}

// ---- (d) fail-open on a dead Redis ---------------------------------------------------------
log(`(d) fail-open: RedisCache at ${DEAD_REDIS}`);
const logger = new CountingLogger();
const createStarted = performance.now();
const deadApp = await McpFactory.create(BenchModule, {
  name: "frugal-dead-redis",
  version: "1.0.0",
  providers: [
    { provide: CACHE, useFactory: () => new RedisCache({ url: DEAD_REDIS, prefix: PREFIX }) },
    { provide: LOGGER, useValue: logger },
  ],
});
const createMs = performance.now() - createStarted;
const deadClient = await connect((t) => deadApp.connect(t));
const callMs: number[] = [];
const extraMs: number[] = [];
workMs.length = 0;
for (let n = 0; n < FAIL_OPEN_CALLS; n++) {
  const started = performance.now();
  const result = await deadClient.callTool({ name: "work", arguments: { n: n % 3 } });
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error(`(d) call ${n} failed: ${JSON.stringify(result.content)}`);
  callMs.push(elapsed);
  extraMs.push(elapsed - (workMs.at(-1) ?? 0));
}
const failOpen = {
  createMs,
  medianCallMs: median(callMs),
  medianHandlerMs: median(workMs),
  medianExtraMs: median(extraMs),
  maxExtraMs: Math.max(...extraMs),
  handlerRuns: workMs.length,
  backendErrors: deadApp.stats().cache.backendErrors,
  loggedErrors: logger.errors,
};
if (failOpen.handlerRuns !== FAIL_OPEN_CALLS) throw new Error("(d) some call was not served by its handler");
await deadClient.close();
await deadApp.close();
for (const close of closers) await close();

// ---- report --------------------------------------------------------------------------------
const met = {
  memoryHit: memory.ratioToBare.hit <= GOALS.memoryHit,
  redisHit: redis ? redis.ratio <= GOALS.redisHit : null,
  burst:
    memoryBursts.maxHandlerCalls === GOALS.burstHandlerCalls &&
    (redisBursts ? redisBursts.maxHandlerCalls === GOALS.burstHandlerCalls : true),
  failOpen: failOpen.medianCallMs <= failOpen.medianHandlerMs + GOALS.failOpenExtraMs,
};
const verdict = (ok: boolean | null) => (ok === null ? "skipped" : ok ? "met" : "**NOT met**");
const f1 = (n: number) => n.toFixed(1);
const rows = [
  "| case | frugal-mcp | reference | ratio / result | goal | |",
  "| --- | ---: | ---: | ---: | --- | --- |",
  `| (a) in-memory \`@Cached\` hit vs bare SDK call | ${f1(memory.usPerCall.hit)} µs | ${f1(memory.usPerCall.bare)} µs | ${memory.ratioToBare.hit.toFixed(3)} | ≤ ${GOALS.memoryHit} | ${verdict(met.memoryHit)} |`,
  `| (a′) uncached frugal-mcp call vs bare (reference) | ${f1(memory.usPerCall.frugal)} µs | ${f1(memory.usPerCall.bare)} µs | ${memory.ratioToBare.frugal.toFixed(3)} | | |`,
  `| (a″) a second bare SDK server vs bare (noise floor) | ${f1(memory.usPerCall.control)} µs | ${f1(memory.usPerCall.bare)} µs | ${memory.ratioToBare.control.toFixed(3)} | | |`,
  redis
    ? `| (b) \`RedisCache\` hit vs ioredis GET + bare SDK call | ${f1(redis.usPerCall.hit)} µs | ${f1(redis.usPerCall.getPlusBare)} µs | ${redis.ratio.toFixed(3)} | ≤ ${GOALS.redisHit} | ${verdict(met.redisHit)} |`
    : `| (b) \`RedisCache\` hit | | | Redis unavailable | ≤ ${GOALS.redisHit} | skipped |`,
  `| (c) ${BURST} concurrent identical misses (${SLOW_MS} ms handler), in memory | ${memoryBursts.maxHandlerCalls} handler call(s) per burst (${BURSTS} bursts) | | burst ${f1(memoryBursts.medianBurstMs)} ms | = 1 | ${verdict(memoryBursts.maxHandlerCalls === 1)} |`,
  redisBursts
    ? `| (c) the same on \`RedisCache\` | ${redisBursts.maxHandlerCalls} handler call(s) per burst (${BURSTS} bursts) | | burst ${f1(redisBursts.medianBurstMs)} ms | = 1 | ${verdict(redisBursts.maxHandlerCalls === 1)} |`
    : "| (c) the same on `RedisCache` | | | Redis unavailable | = 1 | skipped |",
  `| (d) fail-open, \`RedisCache\` at a dead port | ${f1(failOpen.medianCallMs)} ms/call | handler ${f1(failOpen.medianHandlerMs)} ms | +${f1(failOpen.medianExtraMs)} ms (max +${f1(failOpen.maxExtraMs)}) | ≤ handler + ${GOALS.failOpenExtraMs} ms | ${verdict(met.failOpen)} |`,
];
const table = rows.join("\n");
console.log(table);

const date = new Date().toISOString();
const results = {
  benchmark: "cache",
  date,
  machine: machine(),
  redis: redisServer ?? null,
  method: {
    memory: MEMORY,
    redis: REDIS,
    burst: { size: BURST, bursts: BURSTS, handlerMs: SLOW_MS },
    failOpen: { calls: FAIL_OPEN_CALLS, handlerMs: WORK_MS },
  },
  goals: GOALS,
  met,
  memoryHit: { ...memory, usPerCallByRound: Object.fromEntries(memorySamples) },
  redisHit: redis
    ? {
        usPerCall: redis.usPerCall,
        ratio: redis.ratio,
        hits: redis.hits,
        usPerCallByRound: Object.fromEntries(redis.samples),
      }
    : null,
  concurrentMisses: { memory: memoryBursts, redis: redisBursts ?? null },
  failOpen: { ...failOpen, callMs, handlerMs: workMs },
};
writeResults("cache", results);

upsertSection(
  new URL("../../BENCHMARKS.md", import.meta.url),
  "Caching (bench:cache)",
  [
    "`npm run bench:cache` (bench/cache.bench.ts; raw figures in bench/results/cache.json)",
    "",
    `Run ${date.slice(0, 16).replace("T", " ")} UTC on ${describeMachine()}, Redis ${redisServer ?? "unavailable"} on loopback.`,
    "",
    table,
    "",
    `Method: every call is an SDK \`Client.callTool\` over an in-memory transport. (a) ${MEMORY.warmup} warm-up calls, one GC, ${MEMORY.rounds} rounds × ${MEMORY.opsPerRound} sequential calls per contender in rotating order; µs/call is the median over rounds, the ratio the median of per-round ratios. (b) the same with ${REDIS.rounds} × ${REDIS.opsPerRound}; the reference GETs the very entry the cache stored, then calls the bare server. (c) ${BURSTS} bursts of ${BURST} simultaneous calls on a cold key. (d) ${FAIL_OPEN_CALLS} calls of a ${WORK_MS} ms handler with the cache at ${DEAD_REDIS}; \`McpFactory.create\` took ${f1(failOpen.createMs)} ms there (it waits up to \`readyTimeoutMs\` for the connection).`,
  ].join("\n"),
);
log(`results: bench/results/cache.json, section "Caching (bench:cache)" of BENCHMARKS.md`);
