/**
 * Issue 13: memory stays bounded. (a) `LruCache` stays within its byte cap under 10,000
 * large writes, by its own accounting, and `MemoryStorage` within its cap under 10,000
 * writes and deletes; (b) the heap after GC stays flat (growth under 10 MiB between the
 * second and the last sample) over 100,000 in-memory tool calls and over 2,000 sessions
 * that connect and close. Prints `[figures]` lines for RELIABILITY.md.
 *
 *   npx vitest run --config vitest.reliability.config.ts test/reliability/memory.test.ts
 */
import v8 from "node:v8";
import vm from "node:vm";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  Cached,
  type CacheEntry,
  createTestClient,
  LruCache,
  McpModule,
  McpService,
  MemoryStorage,
  StorageError,
  type StoredResourceMeta,
  Tool,
} from "frugal-mcp";
import { describe, expect, it } from "vitest";
import { z } from "zod";

const MiB = 1024 * 1024;
/** "Flat": the heap after GC grows less than this between the second and the last sample. */
const FLAT_BYTES = 10 * MiB;

/** A garbage collector: `global.gc` under --expose-gc, else one exposed at run time. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
}

/** JS heap used after a full GC (three passes, so weak and finalized objects go too). */
function heapAfterGc(gc: () => void): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

const mib = (bytes: number) => (bytes / MiB).toFixed(1);

/** Deterministic sizes (a small LCG), so the figures are reproducible. */
function sizes(seed: number) {
  let state = seed >>> 0;
  return (min: number, max: number) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return min + (state % (max - min + 1));
  };
}

describe("byte caps", () => {
  it("keeps LruCache within maxBytes under 10,000 large writes (its own accounting)", async () => {
    const maxBytes = 2 * MiB;
    const cache = new LruCache({ maxBytes });
    // The cache's own byte accounting (lru-cache's calculatedSize), read after every write.
    const used = () => (cache as unknown as { entries: { calculatedSize: number; size: number } }).entries;
    const next = sizes(13);
    let peak = 0;
    let written = 0;
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) {
      // 1 KiB to 256 KiB: some over maxEntryBytes (205 KiB), which must not be stored at all.
      const size = next(1024, 256 * 1024);
      const entry: CacheEntry = {
        value: { i, blob: "x".repeat(size) },
        namespace: `ns${i % 17}`,
        input: { i },
        expiresAt: Date.now() + 60_000,
      };
      await cache.set(`key:${i}`, entry, 60_000);
      written += size;
      peak = Math.max(peak, used().calculatedSize);
      expect(used().calculatedSize).toBeLessThanOrEqual(maxBytes);
    }
    const ms = performance.now() - started;
    console.log(
      `[figures] LruCache cap: 10000 writes, ${mib(written)} MiB written, peak ${mib(peak)} MiB of ${mib(maxBytes)} MiB, ${used().size} entries, ${cache.evictions} evictions, ${Math.round(ms)} ms`,
    );
    expect(peak).toBeLessThanOrEqual(maxBytes);
    expect(cache.evictions).toBeGreaterThan(0);
  });

  it("keeps MemoryStorage within maxBytes under 10,000 writes and deletes", async () => {
    const maxBytes = 16 * MiB;
    const storage = new MemoryStorage({ maxBytes });
    const usedBytes = () => (storage as unknown as { usedBytes: number }).usedBytes;
    const next = sizes(7);
    const live: string[] = [];
    let refused = 0;
    let peak = 0;
    let written = 0;
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) {
      const size = next(1024, 512 * 1024);
      const id = `id${i}`;
      const meta: StoredResourceMeta = {
        id,
        uri: `ephemeral://${id}`,
        owner: "session:a",
        creator: "session:a",
        name: id,
        mimeType: "text/plain",
        kind: "text",
        size,
        total: 1,
        version: 1,
        createdAt: 0,
        expiresAt: Number.MAX_SAFE_INTEGER,
      };
      try {
        // Also a replacement of a live one now and then (the freed bytes must be counted).
        const target = i % 11 === 0 && live.length > 0 ? (live[next(0, live.length - 1)] as string) : id;
        await storage.put({ ...meta, id: target }, new Uint8Array(size), new Uint8Array(8));
        if (target === id) live.push(id);
        written += size + 8;
      } catch (error) {
        expect(error).toBeInstanceOf(StorageError);
        refused++;
        // Free a few, as a sweep of expired resources would.
        for (let k = 0; k < 4 && live.length > 0; k++) {
          await storage.delete(live.splice(next(0, live.length - 1), 1)[0] as string);
        }
      }
      peak = Math.max(peak, usedBytes());
      expect(usedBytes()).toBeLessThanOrEqual(maxBytes);
    }
    // Its accounting matches what it holds.
    let held = 0;
    for await (const meta of storage.list()) held += meta.size + 8;
    const ms = performance.now() - started;
    console.log(
      `[figures] MemoryStorage cap: 10000 writes, ${mib(written)} MiB stored, ${refused} refused as full, peak ${mib(peak)} MiB of ${mib(maxBytes)} MiB, accounting ${usedBytes()} = held ${held} bytes, ${Math.round(ms)} ms`,
    );
    expect(usedBytes()).toBe(held);
    expect(refused).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Heap over many calls and many sessions
// ---------------------------------------------------------------------------------------------

@McpService()
class CounterService {
  calls = 0;

  @Tool({ input: { text: z.string().max(200), n: z.number().int() } })
  echo({ text, n }: { text: string; n: number }) {
    this.calls++;
    return { text, n, calls: this.calls };
  }

  /** Cached per owner, so cache entries come and go with the sessions. */
  @Tool({ input: { n: z.number().int() } })
  @Cached({ ttl: 60_000 })
  square({ n }: { n: number }) {
    return { square: n * n };
  }
}

@McpModule({ services: [CounterService] })
class CounterModule {}

/** Samples heap after GC at `samples` even points of `total` steps; returns the figures. */
async function heapSamples(
  total: number,
  samples: number,
  step: (from: number, to: number) => Promise<void>,
): Promise<number[]> {
  const gc = collector();
  const heap: number[] = [heapAfterGc(gc)];
  const chunk = Math.ceil(total / samples);
  for (let done = 0; done < total; done += chunk) {
    await step(done, Math.min(total, done + chunk));
    heap.push(heapAfterGc(gc));
  }
  return heap;
}

describe("heap after GC", () => {
  it("stays flat over 100,000 in-memory tool calls", async () => {
    const t = await createTestClient(CounterModule, { cache: new LruCache({ maxBytes: 4 * MiB }) } as never);
    try {
      const LOOPS = 16;
      const started = performance.now();
      const heap = await heapSamples(100_000, 10, async (from, to) => {
        let nextCall = from;
        await Promise.all(
          Array.from({ length: LOOPS }, async () => {
            while (nextCall < to) {
              const n = nextCall++;
              // Mostly plain calls; every 4th a cached one (1,000 distinct keys), every 50th invalid.
              const result =
                n % 50 === 0
                  ? await t.callTool({ name: "echo", arguments: { text: 1, n: "x" } })
                  : n % 4 === 0
                    ? await t.callTool({ name: "square", arguments: { n: n % 1000 } })
                    : await t.callTool({ name: "echo", arguments: { text: `call ${n}`, n } });
              if (n % 50 === 0) expect(result.isError).toBe(true);
            }
          }),
        );
      });
      const ms = performance.now() - started;
      const growth = (heap.at(-1) as number) - (heap[1] as number);
      console.log(
        `[figures] heap over 100000 in-memory tool calls: samples (MiB) ${heap.map(mib).join(", ")}; growth second→last ${mib(growth)} MiB; ${Math.round(ms)} ms (${Math.round(100_000 / (ms / 1000))} calls/s)`,
      );
      expect(growth).toBeLessThan(FLAT_BYTES);
      expect(t.app.stats().sessions).toBe(1);
    } finally {
      await t.close();
    }
  });

  it("stays flat over 2,000 sessions that connect and close", async () => {
    // A small cache: owner-scoped entries of closed sessions stay until evicted, within 2 MiB.
    const t = await createTestClient(CounterModule, { cache: new LruCache({ maxBytes: 2 * MiB }) } as never);
    try {
      const started = performance.now();
      const heap = await heapSamples(2_000, 10, async (from, to) => {
        // Four at a time, each lists the tools, makes a plain and a @Cached call (the cache
        // reads `ctx.signal`, which once kept every closed session reachable, 35 KiB each) and
        // closes.
        let next = from;
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (next < to) {
              const n = next++;
              // createTestClient's own connect, without its list of clients (kept until its close).
              const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
              await t.app.connect(serverSide);
              const client = new Client({ name: "memory-test", version: "0" });
              await client.connect(clientSide);
              await client.callTool({ name: "echo", arguments: { text: `session ${n}`, n } });
              await client.callTool({ name: "square", arguments: { n } });
              await client.listTools();
              await client.close();
            }
          }),
        );
      });
      const ms = performance.now() - started;
      const growth = (heap.at(-1) as number) - (heap[1] as number);
      // Closed sessions are gone from the app (only the first client's stays).
      const live = t.app.stats().sessions;
      console.log(
        `[figures] heap over 2000 sessions (connect, tools/list, 1 call, close): samples (MiB) ${heap.map(mib).join(", ")}; growth second→last ${mib(growth)} MiB; live sessions after ${live}; ${Math.round(ms)} ms`,
      );
      expect(growth).toBeLessThan(FLAT_BYTES);
      expect(live).toBe(1);
    } finally {
      await t.close();
    }
  });
});
