import { describe, expect, it } from "vitest";
import { appStats } from "../../../src/app/app-stats.js";
import { LruCache } from "../../../src/cache/lru-cache.js";
import { AppMetrics } from "../../../src/metrics/app-metrics.js";

describe("appStats", () => {
  it("joins the live counts with the metrics, listing only operations that completed a call", () => {
    const metrics = new AppMetrics();
    metrics.cacheHits = 3;
    metrics.recordTokens("list", 120);
    metrics.operation("list").complete(5, false);
    metrics.operation("never_called");
    metrics.principals.record("principal:alice", 120);
    const stats = appStats({ sessions: 2, inFlight: 1, eventStoreBytes: 64 }, metrics, new LruCache());
    expect(stats).toMatchObject({
      sessions: 2,
      inFlight: 1,
      eventStoreBytes: 64,
      cache: { hits: 3, misses: 0, evictions: 0 },
      tokens: { list: { calls: 1, tokens: 120 } },
      principals: { byPrincipal: { "principal:alice": { calls: 1, tokensOut: 120 } } },
    });
    expect(Object.keys(stats.operations)).toEqual(["list"]);
  });

  it("is a snapshot: changing it changes nothing in the metrics", () => {
    const metrics = new AppMetrics();
    metrics.recordTokens("list", 10);
    const first = appStats({ sessions: 0, inFlight: 0, eventStoreBytes: 0 }, metrics, new LruCache());
    (first.tokens.list as { tokens: number }).tokens = 999;
    expect(
      appStats({ sessions: 0, inFlight: 0, eventStoreBytes: 0 }, metrics, new LruCache()).tokens.list,
    ).toEqual({
      calls: 1,
      tokens: 10,
    });
  });
});
