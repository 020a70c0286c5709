import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Injectable, type InterceptedCall, type Interceptor, type ProtocolResult } from "frugal-mcp";

/** What `LatencyMetrics` reports for one tool, resource or prompt. */
export interface LatencySummary {
  /** Calls seen, refused and failed ones included. */
  calls: number;
  /** Calls that threw or answered `isError` (an interceptor's refusal counts). */
  errors: number;
  /** Median and 95th percentile of the last `window` calls, in milliseconds. */
  p50Ms: number;
  p95Ms: number;
}

/** Durations kept per operation: percentiles over a sliding window, in bounded memory. */
const WINDOW = 1024;

class Series {
  calls = 0;
  errors = 0;
  private readonly samples = new Float64Array(WINDOW);

  add(ms: number, failed: boolean): void {
    this.samples[this.calls % WINDOW] = ms;
    this.calls++;
    if (failed) this.errors++;
  }

  summary(): LatencySummary {
    const kept = this.samples.slice(0, Math.min(this.calls, WINDOW)).sort();
    return {
      calls: this.calls,
      errors: this.errors,
      p50Ms: percentile(kept, 0.5),
      p95Ms: percentile(kept, 0.95),
    };
  }
}

/** Nearest-rank percentile of sorted samples, rounded to 0.01 ms. */
function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const value = sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? 0;
  return Math.round(value * 100) / 100;
}

/**
 * Per-operation call counts, error counts and p50/p95 latency, measured around the whole
 * call (interceptors after it, the cache, the handler, pagination, shaping). Listed first
 * in the app's `interceptors`, so it also times refused calls and cache hits.
 *
 * Register it in the module's `providers` too: the app's container then builds one
 * instance that is both the interceptor and what `metrics` reads.
 *
 * @example
 * ```ts
 * await McpFactory.create(AppModule, { name: "notes", version: "1.0.0", interceptors: [LatencyMetrics] });
 * app.get(LatencyMetrics).snapshot(); // { list_notes: { calls: 3, errors: 0, p50Ms: 0.4, p95Ms: 1.2 } }
 * ```
 */
@Injectable()
export class LatencyMetrics implements Interceptor {
  private readonly byName = new Map<string, Series>();

  async intercept(call: InterceptedCall, next: () => Promise<ProtocolResult>): Promise<ProtocolResult> {
    const started = performance.now();
    let failed = true;
    try {
      const result = await next();
      failed = (result as CallToolResult).isError === true;
      return result;
    } finally {
      // A tool and a prompt may share a name: only tools go by their bare name.
      const key = call.kind === "tool" ? call.name : `${call.kind}:${call.name}`;
      this.observe(key, performance.now() - started, failed);
    }
  }

  /** Records one call (the interceptor does this; public so a test can feed known durations). */
  observe(key: string, ms: number, failed = false): void {
    let series = this.byName.get(key);
    if (!series) {
      series = new Series();
      this.byName.set(key, series);
    }
    series.add(ms, failed);
  }

  /** Every operation seen so far: tools by name, resources and prompts as `resource:name`, `prompt:name`. */
  snapshot(): Record<string, LatencySummary> {
    return Object.fromEntries([...this.byName].map(([name, series]) => [name, series.summary()]));
  }
}
