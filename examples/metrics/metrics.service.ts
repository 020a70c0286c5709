import { Cached, Invalidates, McpService, Resource, Tool } from "frugal-mcp";
import { z } from "zod";
import { METRIC_NAMES, type MetricName, MetricsStore } from "./metrics.store.js";

const DAY = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "a day as YYYY-MM-DD")
  .describe("UTC day, YYYY-MM-DD");

/**
 * One service, four cache tiers: how long a result may be reused follows how fast its
 * data changes, and writes drop exactly the entries they make wrong.
 *
 * | operation          | cached              | dropped by                                      |
 * |--------------------|---------------------|-------------------------------------------------|
 * | `config://metrics` | 1 hour              | `config.changed` (and its subscribers are told) |
 * | `daily_report`     | 15 minutes, per day | `metrics.written` for the same day only         |
 * | `live_metrics`     | 30 seconds          | nothing: 30 s of lag is the contract            |
 * | `realtime`         | never               |                                                 |
 *
 * The tools are cached with `scope: "global"`: metrics are the same for every caller, and
 * the default for tools (`"owner"`, one entry per session or principal) would keep each
 * session, and so each instance behind a shared Redis, from reusing anyone else's result.
 */
@McpService()
export class MetricsService {
  constructor(private readonly store: MetricsStore) {}

  @Resource("config://metrics", {
    description: "Which metrics exist, their units and windows",
    mimeType: "application/json",
  })
  @Cached({ ttl: 3_600_000, invalidateOn: ["config.changed"] })
  config() {
    return this.store.config();
  }

  @Tool({
    description: "Summary (count, sum, min, max, avg) of each metric for one day",
    input: { day: DAY },
    annotations: { readOnlyHint: true },
  })
  // A past day's report only changes when someone writes to that day, so the matcher keeps
  // every other day's entry: a write for today does not cost a recomputation of last month.
  @Cached({
    ttl: 15 * 60_000,
    scope: "global",
    invalidateOn: [
      {
        event: "metrics.written",
        match: (input: { day: string }, payload: { day: string }) => input.day === payload.day,
      },
    ],
  })
  dailyReport({ day }: { day: string }) {
    return this.store.dailyReport(day);
  }

  @Tool({
    description: "Summary of each metric over the last few minutes (may lag by up to 30 s)",
    annotations: { readOnlyHint: true },
  })
  // No invalidateOn: under load every write would drop it, and the cache would never hit.
  @Cached({ ttl: 30_000, scope: "global" })
  liveMetrics() {
    return this.store.live();
  }

  @Tool({ description: "The gauges right now (never cached)", annotations: { readOnlyHint: true } })
  realtime() {
    return this.store.realtime();
  }

  @Tool({
    description: "Record one value of a metric for a day",
    input: { day: DAY, name: z.enum(METRIC_NAMES), value: z.number().finite() },
  })
  // The payload of "metrics.written" is this tool's validated input, so `day` is there for
  // daily_report's matcher. It is emitted after a success, before the response is sent.
  @Invalidates("metrics.written")
  recordMetric({ day, name, value }: { day: string; name: MetricName; value: number }) {
    const sample = this.store.record(day, name, value);
    return { recorded: sample };
  }
}
