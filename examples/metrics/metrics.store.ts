import { readFileSync } from "node:fs";
import { CLOCK, type Clock, Inject, Injectable } from "frugal-mcp";

/** The metrics this server knows. */
export const METRIC_NAMES = ["requests", "errors", "latency_ms"] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** One recorded value. `day` is the day it counts for (backfills allowed); `at` is when it arrived. */
export interface Sample {
  day: string;
  name: MetricName;
  value: number;
  at: number;
}

/** count / sum / min / max / avg of some samples. */
export interface Summary {
  count: number;
  sum: number;
  min: number;
  max: number;
  avg: number;
}

/** What `config://metrics` serves: settings that change a few times a year. */
export interface MetricsConfig {
  metrics: readonly MetricName[];
  units: Record<MetricName, string>;
  liveWindowMs: number;
  retentionDays: number;
}

const DEFAULT_CONFIG: MetricsConfig = {
  metrics: METRIC_NAMES,
  units: { requests: "count", errors: "count", latency_ms: "ms" },
  liveWindowMs: 5 * 60_000,
  retentionDays: 90,
};

/** The synthetic stream ticks every 10 s: live metrics aggregate the ticks inside their window. */
const TICK_MS = 10_000;

/**
 * An in-memory metrics database: a synthetic, deterministic history for any day (24
 * hourly samples per metric, seeded by the day), a synthetic live stream derived from the
 * `CLOCK`, and the samples written through `record_metric`.
 *
 * Each query bumps a counter in `queries`, so the example (and its test) can show which
 * calls the cache answered and which reached the store.
 *
 * @example
 * ```ts
 * const store = new MetricsStore(new ManualClock(Date.UTC(2026, 0, 1)));
 * store.dailyReport("2026-01-01").metrics.requests.avg;
 * ```
 */
@Injectable()
export class MetricsStore {
  /** How many times each query ran (not how many times it was asked: the cache answers most). */
  readonly queries = { config: 0, dailyReport: 0, live: 0, realtime: 0 };
  private readonly recorded: Sample[] = [];
  private readings = 0;
  // Read once: the path is the operator's choice, never a client's.
  private readonly configFile = process.env.METRICS_CONFIG;

  // The clock comes from DI so that a test's ManualClock moves the live window too.
  constructor(@Inject(CLOCK) private readonly clock: Clock) {}

  /** The defaults, overlaid with the JSON file named by `METRICS_CONFIG` when set. */
  config(): MetricsConfig {
    this.queries.config++;
    return this.settings();
  }

  /** Per-metric summary of one day: its synthetic history plus what was recorded for it. */
  dailyReport(day: string) {
    this.queries.dailyReport++;
    const samples = [...history(day), ...this.recorded.filter((s) => s.day === day)];
    return { day, samples: samples.length, metrics: summarize(samples) };
  }

  /** Per-metric summary of the live window: synthetic ticks plus samples that arrived in it. */
  live() {
    this.queries.live++;
    const { liveWindowMs: windowMs } = this.settings();
    const now = this.clock.now();
    const from = now - windowMs;
    const samples: Sample[] = this.recorded.filter((s) => s.at > from && s.at <= now);
    for (let tick = Math.floor(from / TICK_MS) + 1; tick <= Math.floor(now / TICK_MS); tick++) {
      for (const name of METRIC_NAMES)
        samples.push({ day: dayOf(tick * TICK_MS), name, value: wave(name, tick), at: tick * TICK_MS });
    }
    return { at: now, windowMs, metrics: summarize(samples) };
  }

  /** The gauges right now; every call is a new reading (numbered, so a repeat is visible). */
  realtime() {
    this.queries.realtime++;
    const now = this.clock.now();
    const tick = now / TICK_MS;
    return {
      at: now,
      reading: ++this.readings,
      requestsPerSecond: wave("requests", tick) / 10,
      heapUsedBytes: process.memoryUsage().heapUsed,
    };
  }

  record(day: string, name: MetricName, value: number): Sample {
    const sample = { day, name, value, at: this.clock.now() };
    this.recorded.push(sample);
    return sample;
  }

  private settings(): MetricsConfig {
    if (!this.configFile) return DEFAULT_CONFIG;
    const overrides = JSON.parse(readFileSync(this.configFile, "utf8")) as Partial<MetricsConfig>;
    return { ...DEFAULT_CONFIG, ...overrides };
  }
}

/** `YYYY-MM-DD` (UTC) of a timestamp. */
export function dayOf(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** A smooth, deterministic value per metric and tick: enough to make the numbers move. */
function wave(name: MetricName, tick: number): number {
  const base = { requests: 500, errors: 5, latency_ms: 40 }[name];
  return Math.round(base * (1 + 0.3 * Math.sin(tick / 17) + 0.1 * Math.cos(tick / 3)));
}

/** 24 hourly samples per metric, the same for a day on every run (seeded by the day). */
function history(day: string): Sample[] {
  let seed = 0;
  for (const char of day) seed = (seed * 31 + char.charCodeAt(0)) | 0;
  const start = Date.parse(`${day}T00:00:00Z`) || 0;
  return Array.from({ length: 24 }, (_, hour) => hour).flatMap((hour) =>
    METRIC_NAMES.map((name) => ({
      day,
      name,
      value: wave(name, seed + hour * 7),
      at: start + hour * 3_600_000,
    })),
  );
}

function summarize(samples: readonly Sample[]): Partial<Record<MetricName, Summary>> {
  const out: Partial<Record<MetricName, Summary>> = {};
  for (const { name, value } of samples) {
    const s = out[name] ?? { count: 0, sum: 0, min: value, max: value, avg: 0 };
    s.count++;
    s.sum += value;
    s.min = Math.min(s.min, value);
    s.max = Math.max(s.max, value);
    s.avg = Math.round((s.sum / s.count) * 100) / 100;
    out[name] = s;
  }
  return out;
}
