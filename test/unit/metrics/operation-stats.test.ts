import { describe, expect, it } from "vitest";
import { OperationCounters } from "../../../src/metrics/operation-stats.js";

describe("OperationCounters", () => {
  it("reports zero calls and zero latency before any call", () => {
    expect(new OperationCounters().snapshot()).toEqual({
      calls: 0,
      errors: 0,
      p50Ms: 0,
      p95Ms: 0,
      cacheHits: 0,
      cacheMisses: 0,
      continuations: 0,
      rereads: 0,
      bytesOut: 0,
      tokensOut: 0,
    });
  });

  it("counts completed calls and failures, and reads percentiles from the latencies", () => {
    const stats = new OperationCounters();
    for (let i = 0; i < 19; i++) stats.complete(2, false);
    stats.complete(400, true);
    const snapshot = stats.snapshot();
    expect(snapshot).toMatchObject({ calls: 20, errors: 1 });
    expect(snapshot.p50Ms).toBeGreaterThan(1.5);
    expect(snapshot.p50Ms).toBeLessThan(2.5);
    expect(snapshot.p95Ms).toBeLessThanOrEqual(snapshot.p50Ms * 1.1);
  });

  it("passes the counters other stages raise through to the snapshot", () => {
    const stats = new OperationCounters();
    stats.cacheHits = 3;
    stats.bytesOut += 1_024;
    stats.tokensOut += 90;
    expect(stats.snapshot()).toMatchObject({ cacheHits: 3, bytesOut: 1_024, tokensOut: 90 });
  });

  it("rounds latencies to the microsecond", () => {
    const stats = new OperationCounters();
    stats.complete(3.2, false);
    const { p50Ms } = stats.snapshot();
    expect(Math.round(p50Ms * 1000)).toBe(p50Ms * 1000);
  });
});
