import { describe, expect, it } from "vitest";
import { CACHE_HIT, CACHE_MISS, cacheStageFor } from "../../../src/cache/cache.stage.js";
import { LruCache } from "../../../src/cache/lru-cache.js";
import type { CacheEntry, ResultCache } from "../../../src/cache/result-cache.js";
import { SingleFlight } from "../../../src/cache/single-flight.js";
import { ManualClock } from "../../../src/clock/clock.js";
import type { Logger } from "../../../src/logging/logger.js";
import { AppMetrics } from "../../../src/metrics/app-metrics.js";
import { type Invocation, newInvocation } from "../../../src/pipeline/invocation.js";
import type { OperationDefinition } from "../../../src/pipeline/operation.js";
import type { ToolContext } from "../../../src/pipeline/tool-context.js";

const silent: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const ctx = { owner: "session:a", meta: {}, signal: new AbortController().signal } as unknown as ToolContext;

/** The cache stage of one cached resource, with its own clock and cache. */
function cachedStage(scope: "global" | "owner", cache: ResultCache = new LruCache()) {
  const clock = new ManualClock(1_000);
  const definition = {
    kind: "resource",
    where: "Config.read",
    capabilities: new Map(),
  } as unknown as OperationDefinition;
  const deps = { cache, clock, flights: new SingleFlight(), metrics: new AppMetrics(), logger: silent };
  const stage = cacheStageFor({ ttl: 60_000, scope, invalidateOn: [] }, definition.where, deps);
  const call = async (): Promise<Invocation> => {
    const invocation = newInvocation(definition, {}, "config://app", () => ctx);
    await stage(invocation, async () => ({ contents: [] }));
    return invocation;
  };
  return { clock, call };
}

describe("cacheStage: how long the result served stays fresh (CallOutcome.freshForMs)", () => {
  it("is the full ttl when stored, then the entry's remaining lifetime on each hit", async () => {
    const { clock, call } = cachedStage("global");
    const stored = await call();
    expect(stored.outcome).toMatchObject({ freshForMs: 60_000, sharedAcrossOwners: true });
    expect(CACHE_MISS.get(stored.outcome)).toBe(true);
    clock.advance(20_000);
    const hit = await call();
    expect(hit.outcome).toMatchObject({ freshForMs: 40_000, sharedAcrossOwners: true });
    expect(CACHE_HIT.get(hit.outcome)).toBe(true);
  });

  it("says the entry is not shared when it is scoped to the owner", async () => {
    const { call } = cachedStage("owner");
    expect((await call()).outcome).toMatchObject({ freshForMs: 60_000, sharedAcrossOwners: false });
  });

  it("leaves it unset when the write failed: nothing was kept", async () => {
    const failing: ResultCache = {
      get: async () => undefined,
      set: async (_key: string, _entry: CacheEntry) => {
        throw new Error("backend down");
      },
    } as unknown as ResultCache;
    const { call } = cachedStage("global", failing);
    const invocation = await call();
    expect(CACHE_MISS.get(invocation.outcome)).toBe(true);
    expect(invocation.outcome.freshForMs).toBeUndefined();
  });
});

describe("cacheStage: a failing backend", () => {
  it("counts and logs a failed read, serves from the source and does not write", async () => {
    const errors: string[] = [];
    const logger: Logger = { ...silent, error: (message: string) => void errors.push(message) };
    let writes = 0;
    const failing = {
      get: async () => {
        throw new Error("backend down");
      },
      set: async () => {
        writes++;
      },
    } as unknown as ResultCache;
    const metrics = new AppMetrics();
    const deps = {
      cache: failing,
      clock: new ManualClock(1_000),
      flights: new SingleFlight(),
      metrics,
      logger,
    };
    const stage = cacheStageFor({ ttl: 60_000, scope: "global", invalidateOn: [] }, "Config.read", deps);
    const definition = { kind: "resource", where: "Config.read", capabilities: new Map() } as never;
    const invocation = newInvocation(definition, {}, "config://app", () => ctx);
    const result = await stage(invocation, async () => ({
      contents: [{ uri: "config://app", text: "fresh" }],
    }));
    expect(result).toEqual({ contents: [{ uri: "config://app", text: "fresh" }] });
    expect(metrics.cacheBackendErrors).toBe(1);
    expect(errors).toEqual(["cache read failed for Config.read; serving from the source"]);
    expect(writes).toBe(0);
  });
});
