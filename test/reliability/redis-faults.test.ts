/**
 * Redis faults under load (issue 13, findings 1 and 7), through the SDK's real `Client`.
 *
 * Each test starts its own `redis-server` on a free port and stalls it (SIGSTOP, then
 * SIGCONT) or kills and restarts it, while workers call cached tools and invalidating
 * writes. The Redis every other test uses (127.0.0.1:6379) is never touched.
 *
 * A read is stale when it returns something else than the value its worker last wrote:
 * each worker owns its key and reads only after its write was answered, so a correct
 * server never returns an older value.
 *
 *   npx vitest run test/reliability/redis-faults.test.ts
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CACHE,
  Cached,
  Ephemeral,
  EVENT_BUS,
  type EventBus,
  type EventListener,
  InMemoryEventBus,
  Invalidates,
  LOGGER,
  type Logger,
  LruCache,
  McpModule,
  McpService,
  RedisCache,
  RedisEventBus,
  RedisStorage,
  STORAGE,
  Tool,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { OwnRedis, redisServerInstalled } from "../support/own-redis.js";

/** Longest a Redis command may take (the providers' default). */
const COMMAND_TIMEOUT_MS = 250;
/** What a cached call may take while Redis hangs: one timed-out read, then the source. */
const FAIL_OPEN_BOUND_MS = COMMAND_TIMEOUT_MS + 150;

// The source of truth every instance reads (one process plays several app instances).
const db = new Map<string, number>();
const runs = new Map<string, number>();

@McpService()
class PricesService {
  @Tool({ input: { sku: z.string() } })
  @Cached({
    ttl: 60_000,
    scope: "global",
    invalidateOn: [{ event: "price.changed", match: (input, payload) => input.sku === payload.sku }],
  })
  price({ sku }: { sku: string }) {
    runs.set(sku, (runs.get(sku) ?? 0) + 1);
    return { sku, value: db.get(sku) ?? 0 };
  }

  @Tool({ input: { sku: z.string(), value: z.number() } })
  @Invalidates("price.changed")
  setPrice({ sku, value }: { sku: string; value: number }) {
    db.set(sku, value);
    return { sku, value };
  }

  @Tool({ input: { rows: z.number() } })
  @Ephemeral({ when: "always" })
  report({ rows }: { rows: number }) {
    return Array.from({ length: rows }, (_, i) => ({ row: i, text: `row ${i}` }));
  }
}

@McpModule({ services: [PricesService] })
class PricesModule {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------
// Instances, load, figures.

const available = redisServerInstalled();
const cleanups: Array<() => void | Promise<void>> = [];
const figures: Array<Record<string, string | number>> = [];

/** Every unhandled rejection in this process while a test runs (there must be none). */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);

beforeEach(() => {
  unhandled.length = 0;
  process.on("unhandledRejection", onUnhandled);
});

afterEach(async () => {
  process.off("unhandledRejection", onUnhandled);
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

afterAll(() => {
  if (figures.length === 0) return;
  const columns = Object.keys(figures[0] as object);
  const lines = [
    `| ${columns.join(" | ")} |`,
    `| ${columns.map(() => "---").join(" | ")} |`,
    ...figures.map((row) => `| ${columns.map((c) => row[c]).join(" | ")} |`),
  ];
  console.log(`\nnpx vitest run test/reliability/redis-faults.test.ts\n\n${lines.join("\n")}\n`);
});

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

type Backend = "redis-cache" | "lru";

async function instance(server: OwnRedis, prefix: string, backend: Backend): Promise<TestClient> {
  const cache =
    backend === "redis-cache"
      ? new RedisCache({ url: server.url, prefix: `${prefix}cache:`, commandTimeoutMs: COMMAND_TIMEOUT_MS })
      : new LruCache();
  const bus = new RedisEventBus({
    url: server.url,
    channel: `${prefix}events`,
    commandTimeoutMs: COMMAND_TIMEOUT_MS,
  });
  const client = await createTestClient(PricesModule, {
    readyTimeoutMs: 2_000,
    providers: [
      { provide: CACHE, useValue: cache },
      { provide: EVENT_BUS, useValue: bus },
      { provide: LOGGER, useValue: quiet },
    ],
  });
  cleanups.push(() => client.close());
  return client;
}

const price = async (client: Client, sku: string) =>
  ((await client.callTool({ name: "price", arguments: { sku } })).structuredContent as { value: number })
    .value;

const setPrice = async (client: Client, sku: string, value: number) => {
  const result = await client.callTool({ name: "set_price", arguments: { sku, value } });
  expect(result.isError).toBeFalsy();
};

type Phase = "before" | "fault" | "after";

/**
 * Workers, one key each: write (every third round, through the writer) then read on every
 * reader; a read that does not return the worker's last write is stale. With readers on
 * other instances, a worker waits `settleMs` after its write: pub/sub delivers an
 * invalidation to the others a moment after the write is answered, even with no fault.
 */
function startLoad(writer: Client, readers: Client[], tag: string, settleMs = 0, workers = 4) {
  let phase: Phase = "before";
  let stopping = false;
  const stats = {
    calls: 0,
    writes: 0,
    reads: 0,
    stale: { before: 0, fault: 0, after: 0 } as Record<Phase, number>,
    staleExamples: [] as string[],
    failures: [] as string[],
    maxReadMs: { before: 0, fault: 0, after: 0 } as Record<Phase, number>,
    maxWriteMs: { before: 0, fault: 0, after: 0 } as Record<Phase, number>,
  };
  const loops = Array.from({ length: workers }, async (_, w) => {
    const sku = `${tag}-${w}`;
    let expected = 0;
    for (let round = 0; !stopping; round++) {
      try {
        if (round % 3 === 2) {
          expected++;
          const started = performance.now();
          const writePhase = phase;
          await setPrice(writer, sku, expected);
          stats.maxWriteMs[writePhase] = Math.max(stats.maxWriteMs[writePhase], performance.now() - started);
          stats.writes++;
          stats.calls++;
          if (settleMs > 0) await sleep(settleMs);
        }
        for (const [r, reader] of readers.entries()) {
          const started = performance.now();
          const readPhase = phase;
          const value = await price(reader, sku);
          const ms = performance.now() - started;
          stats.calls++;
          stats.reads++;
          // A read that ran across a phase change counts in the phase it started in.
          stats.maxReadMs[readPhase] = Math.max(stats.maxReadMs[readPhase], ms);
          if (value !== expected) {
            stats.stale[readPhase]++;
            if (stats.staleExamples.length < 5)
              stats.staleExamples.push(
                `${readPhase}: reader ${r} read ${value} of ${sku}, wrote ${expected}`,
              );
          }
        }
      } catch (error) {
        // A call must never fail because Redis does; after the test stops the clients, it may.
        if (!stopping) stats.failures.push(String(error));
      }
      await sleep(15);
    }
  });
  const stop = async () => {
    stopping = true;
    await Promise.all(loops);
    return stats;
  };
  // Stopped before the instances close, even when an assertion fails first.
  cleanups.push(async () => void (await stop()));
  return {
    stats,
    set phase(next: Phase) {
      phase = next;
    },
    stop,
  };
}

type LoadStats = ReturnType<typeof startLoad>["stats"];

/** The witness (written during the fault, read after it) counts with the reads after the fault. */
function countWitness(stats: LoadStats, values: number[], written: number): void {
  stats.calls += values.length;
  stats.reads += values.length;
  for (const value of values) {
    if (value === written) continue;
    stats.stale.after++;
    stats.staleExamples.push(`after: the witness read ${value}, written during the fault: ${written}`);
  }
}

/** Caches the probe's first value on `reader`, so the first probe after a fault tests an invalidation. */
async function prime(writer: Client, reader: Client, sku: string): Promise<void> {
  await setPrice(writer, sku, 1_000);
  expect(await price(reader, sku)).toBe(1_000);
}

/**
 * Polls until a write on `writer` invalidates an entry `reader` had cached and `reader`
 * caches again (its second read does not run the handler): invalidation and caching both
 * work. Resolves with how long that took.
 */
async function timeToRecover(writer: Client, reader: Client, sku: string, since: number): Promise<number> {
  let value = 1_000;
  const deadline = Date.now() + 6_000;
  while (Date.now() < deadline) {
    value++;
    await setPrice(writer, sku, value);
    const first = await price(reader, sku);
    const ran = runs.get(sku) ?? 0;
    const second = await price(reader, sku);
    if (first === value && second === value && (runs.get(sku) ?? 0) === ran) {
      return Math.round(performance.now() - since);
    }
    await sleep(50);
  }
  return Number.POSITIVE_INFINITY;
}

// ---------------------------------------------------------------------------------------

describe.skipIf(!available)("Redis faults under load", () => {
  it("(a) a hang: no unhandled rejection, calls fail open, nothing stale after it", async () => {
    const server = await OwnRedis.start();
    cleanups.push(() => server.stop());
    const prefix = `faults-a:${Date.now()}:`;
    const app = await instance(server, prefix, "redis-cache");
    // The write made during the hang, read after it.
    await setPrice(app, "a-witness", 1);
    expect(await price(app, "a-witness")).toBe(1);

    await prime(app, app, "a-probe");
    const load = startLoad(app, [app], "a");
    await sleep(800);
    load.phase = "fault";
    server.pause();
    await sleep(300);
    await setPrice(app, "a-witness", 2);
    await sleep(1_700);
    load.phase = "after";
    const resumedAt = performance.now();
    server.resume();
    const recoverMs = await timeToRecover(app, app, "a-probe", resumedAt);
    const witness = await price(app, "a-witness");
    await sleep(500);
    const stats = await load.stop();
    countWitness(stats, [witness], 2);

    figures.push(row("(a) SIGSTOP 2 s, RedisCache + RedisEventBus, 1 instance", stats, 1, recoverMs));
    expect(unhandled).toEqual([]);
    expect(stats.failures).toEqual([]);
    expect(stats.staleExamples).toEqual([]);
    expect(witness).toBe(2);
    expect(stats.maxReadMs.fault).toBeLessThan(FAIL_OPEN_BOUND_MS);
    expect(stats.reads).toBeGreaterThan(20);
  });

  it("(b) a kill and restart on the same port: the same", async () => {
    // Persistent, as a production Redis is: a restart keeps the entries, stale ones included.
    const server = await OwnRedis.start({ persistent: true });
    cleanups.push(() => server.stop());
    const prefix = `faults-b:${Date.now()}:`;
    const app = await instance(server, prefix, "redis-cache");
    await setPrice(app, "b-witness", 1);
    expect(await price(app, "b-witness")).toBe(1);

    await prime(app, app, "b-probe");
    const load = startLoad(app, [app], "b");
    await sleep(800);
    load.phase = "fault";
    await server.kill();
    await sleep(300);
    await setPrice(app, "b-witness", 2);
    await sleep(1_200);
    await server.restart();
    load.phase = "after";
    const restartedAt = performance.now();
    const recoverMs = await timeToRecover(app, app, "b-probe", restartedAt);
    const witness = await price(app, "b-witness");
    await sleep(500);
    const stats = await load.stop();
    countWitness(stats, [witness], 2);

    figures.push(row("(b) SIGKILL + restart, RedisCache + RedisEventBus, 1 instance", stats, 1, recoverMs));
    expect(unhandled).toEqual([]);
    expect(stats.failures).toEqual([]);
    expect(stats.staleExamples).toEqual([]);
    expect(witness).toBe(2);
    expect(stats.maxReadMs.fault).toBeLessThan(FAIL_OPEN_BOUND_MS);
  });

  it("(c) two instances with their own LruCache: invalidations sent while Redis is down are not lost", async () => {
    const server = await OwnRedis.start();
    cleanups.push(() => server.stop());
    const prefix = `faults-c:${Date.now()}:`;
    const a = await instance(server, prefix, "lru");
    const b = await instance(server, prefix, "lru");
    await setPrice(a, "c-witness", 1);
    expect(await price(a, "c-witness")).toBe(1);
    expect(await price(b, "c-witness")).toBe(1);

    await prime(a, b, "c-probe");
    const load = startLoad(a, [a, b], "c", 50);
    await sleep(800);
    load.phase = "fault";
    await server.kill();
    await sleep(300);
    await setPrice(a, "c-witness", 2);
    await sleep(1_200);
    await server.restart();
    load.phase = "after";
    const restartedAt = performance.now();
    const recoverMs = await timeToRecover(a, b, "c-probe", restartedAt);
    const witness = [await price(a, "c-witness"), await price(b, "c-witness")];
    await sleep(500);
    const stats = await load.stop();
    countWitness(stats, witness, 2);

    figures.push(row("(c) SIGKILL + restart, LruCache + RedisEventBus, 2 instances", stats, 1, recoverMs));
    expect(unhandled).toEqual([]);
    expect(stats.failures).toEqual([]);
    expect(stats.staleExamples).toEqual([]);
    expect(witness).toEqual([2, 2]);
  });

  it("(d) RedisStorage in a hang: a spill fails closed, stores nothing, and works after it", async () => {
    const server = await OwnRedis.start();
    cleanups.push(() => server.stop());
    const prefix = `faults-d:${Date.now()}:`;
    // A client of our own, so the second fault can hang Redis exactly as the write goes out.
    const redis = new Redis(server.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 400,
      retryStrategy: (attempt) => Math.min(50 * attempt, 500),
    });
    redis.on("error", () => {});
    cleanups.push(() => redis.disconnect());
    await redis.connect();
    let hangOnWrite = false;
    const multi = redis.multi.bind(redis);
    redis.multi = ((...args: Parameters<typeof multi>) => {
      if (hangOnWrite) {
        hangOnWrite = false;
        server.pause();
      }
      return multi(...args);
    }) as typeof redis.multi;
    const app = await createTestClient(PricesModule, {
      readyTimeoutMs: 2_000,
      providers: [
        { provide: STORAGE, useValue: new RedisStorage({ client: redis, prefix }) },
        { provide: LOGGER, useValue: quiet },
      ],
    });
    cleanups.push(() => app.close());
    const spill = () => app.callTool({ name: "report", arguments: { rows: 50 } });
    const linkOf = (result: Awaited<ReturnType<typeof spill>>) =>
      (result.content as Array<{ type: string; uri?: string }>).find((c) => c.type === "resource_link")?.uri;
    let calls = 0;
    let slowestMs = 0;
    let recoverMs = 0;
    const links: string[] = [];
    const spillOk = async () => {
      calls++;
      const result = await spill();
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      links.push(linkOf(result) as string);
      expect(links.at(-1)).toMatch(/^ephemeral:\/\//);
    };
    /** A spill during a hang fails at once, clearly, with no link; one after it works. */
    const spillThroughHang = async (hang: () => void) => {
      hang();
      const started = performance.now();
      calls++;
      const during = await spill();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      expect(during.isError).toBe(true);
      expect(linkOf(during)).toBeUndefined();
      expect(JSON.stringify(during.content)).toMatch(/could not store the result.*nothing was saved/);
      await sleep(300);
      const resumedAt = performance.now();
      server.resume();
      await spillOk();
      recoverMs = Math.max(recoverMs, performance.now() - resumedAt);
    };

    await spillOk();
    // Hung before the spill: even the lookup before the write times out.
    await spillThroughHang(() => server.pause());
    // Hung as the write goes out: it times out here, and Redis runs it once it is back.
    await spillThroughHang(() => {
      hangOnWrite = true;
    });
    for (const link of links) expect((await app.readResource({ uri: link })).contents[0]).toBeDefined();

    // "Nothing was saved" must stay true once the hung server has caught up: only the
    // linked resources exist (metadata, content and index: three keys each).
    await sleep(200);
    const left = await redis.keys(`${prefix}*`);
    const phantoms = left.filter((key) => key.startsWith(`${prefix}m:`)).length - links.length;

    figures.push({
      test: "(d) SIGSTOP ×2 (before a spill, as its write goes out), RedisStorage",
      calls,
      faults: 2,
      "unhandled rejections": unhandled.length,
      "stale reads (before / during / after the fault)": `n/a; resources left by failed spills: ${phantoms}`,
      "slowest read / write during the fault (ms)": `${Math.round(slowestMs)} (failed spill)`,
      "time to recover (ms)": Math.round(recoverMs),
    });
    expect(unhandled).toEqual([]);
    expect(phantoms).toBe(0);
    const resourceKeys = left.filter((key) => /^[mcx]:/.test(key.slice(prefix.length)));
    expect(resourceKeys.length).toBe(3 * links.length);
    // The shared quota ledger counts the linked results only: failed spills took their bytes back.
    const metas = await Promise.all(
      left.filter((key) => key.startsWith(`${prefix}m:`)).map((key) => redis.get(key)),
    );
    const stored = metas.reduce((sum, raw) => sum + (JSON.parse(raw as string) as { size: number }).size, 0);
    expect(Number(await redis.get(`${prefix}u:{${prefix}}:total`))).toBe(stored);
  });
});

describe("an event the app fails to emit", () => {
  /** A bus that fails (before delivering anything) while `down`, like a custom one whose backend is gone. */
  class FlakyBus implements EventBus {
    down = false;
    private readonly inner = new InMemoryEventBus();
    emit(name: string, payload?: unknown): Promise<void> {
      return this.down ? Promise.reject(new Error("bus unavailable")) : this.inner.emit(name, payload);
    }
    subscribe(listener: EventListener): () => void {
      return this.inner.subscribe(listener);
    }
  }

  it("(e) still drops, locally, what @Invalidates would have invalidated", async () => {
    const bus = new FlakyBus();
    const app = await createTestClient(PricesModule, {
      providers: [
        { provide: EVENT_BUS, useValue: bus },
        { provide: LOGGER, useValue: quiet },
      ],
    });
    cleanups.push(() => app.close());
    await setPrice(app, "e-1", 1);
    expect(await price(app, "e-1")).toBe(1);
    const ran = runs.get("e-1");
    expect(await price(app, "e-1")).toBe(1);
    expect(runs.get("e-1")).toBe(ran); // served from the cache

    bus.down = true;
    await setPrice(app, "e-1", 2); // answered: the write happened; the failure is logged
    const afterFailedEmit = await price(app, "e-1");
    bus.down = false;
    // Caching resumes once the namespace has been dropped.
    let polls = 0;
    await expect
      .poll(async () => {
        polls++;
        const before = runs.get("e-1");
        await price(app, "e-1");
        return runs.get("e-1") === before;
      })
      .toBe(true);
    figures.push({
      test: "(e) a custom bus whose emit fails, LruCache",
      calls: 5 + polls,
      faults: 1,
      "unhandled rejections": unhandled.length,
      "stale reads (before / during / after the fault)": `0 / ${afterFailedEmit === 2 ? 0 : 1} / 0`,
      "slowest read / write during the fault (ms)": "n/a",
      "time to recover (ms)": "n/a",
    });
    expect(unhandled).toEqual([]);
    expect(afterFailedEmit).toBe(2);
  });
});

function row(
  test: string,
  stats: LoadStats,
  faults: number,
  recoverMs: number,
): Record<string, string | number> {
  return {
    test,
    calls: stats.calls,
    faults,
    "unhandled rejections": unhandled.length,
    "stale reads (before / during / after the fault)": `${stats.stale.before} / ${stats.stale.fault} / ${stats.stale.after}`,
    "slowest read / write during the fault (ms)": `${Math.round(stats.maxReadMs.fault)} / ${Math.round(stats.maxWriteMs.fault)}`,
    "time to recover (ms)": recoverMs,
  };
}
