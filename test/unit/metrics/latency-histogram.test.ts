import { describe, expect, it } from "vitest";
import { LatencyHistogram } from "../../../src/metrics/latency-histogram.js";

describe("LatencyHistogram", () => {
  it("reads 0 before any call, and a single call back exactly", () => {
    const latency = new LatencyHistogram();
    expect(latency.percentile(0.5)).toBe(0);
    latency.record(12.345);
    expect(latency.percentile(0.5)).toBe(12.345);
    expect(latency.percentile(0.95)).toBe(12.345);
  });

  it("is within 2.2 % of the exact nearest-rank percentile over six decades", () => {
    const latency = new LatencyHistogram();
    // Durations from 2 µs to about 2 s, spread log-uniformly, in a shuffled order.
    const values = Array.from(
      { length: 10_000 },
      (_, i) => 0.002 * 10 ** ((((i * 7919) % 10_000) / 10_000) * 6),
    );
    for (const ms of values) latency.record(ms);
    const sorted = [...values].sort((a, b) => a - b);
    for (const q of [0.01, 0.25, 0.5, 0.9, 0.95, 0.99]) {
      const exact = sorted[Math.ceil(q * sorted.length) - 1] as number;
      expect(Math.abs(latency.percentile(q) - exact) / exact).toBeLessThan(0.022);
    }
    expect(latency.count).toBe(10_000);
  });

  it("keeps sub-microsecond and very long durations within the observed bounds", () => {
    const latency = new LatencyHistogram();
    latency.record(0.0001);
    latency.record(0);
    latency.record(3_600_000); // an hour: past the last bucket
    expect(latency.percentile(0.5)).toBeLessThan(0.0011); // the first bucket: under about 1 µs
    expect(latency.percentile(0.5)).toBeGreaterThanOrEqual(0);
    expect(latency.percentile(1)).toBe(3_600_000);
  });

  it("separates a slow tail: p95 of 95 fast calls and 5 slow ones", () => {
    const latency = new LatencyHistogram();
    for (let i = 0; i < 94; i++) latency.record(1);
    for (let i = 0; i < 6; i++) latency.record(500);
    expect(latency.percentile(0.5)).toBeCloseTo(1, 1);
    expect(latency.percentile(0.95)).toBeGreaterThan(480);
  });
});
