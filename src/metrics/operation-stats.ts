import { LatencyHistogram } from "./latency-histogram.js";

/** What `app.stats().operations` reports for one tool, resource (URI or template) or prompt. */
export interface OperationStats {
  /** Calls that completed (answered or failed). */
  calls: number;
  /** Calls that failed: a protocol error, or a tool's `isError` result. */
  errors: number;
  /** Median latency in milliseconds, from the call's start in the server to its answer. */
  p50Ms: number;
  /** 95th-percentile latency in milliseconds. */
  p95Ms: number;
  /** Calls answered from the cache (`@Cached`). */
  cacheHits: number;
  /** Calls the cache could not answer, so the handler ran (calls that joined a running miss count in neither). */
  cacheMisses: number;
  /**
   * Calls with a `cursor`, and tail polls (a stream read from the `nextSince` its caller was
   * handed): a model walking on to the next page or chunk.
   */
  continuations: number;
  /** Reads of a resource URI the same owner had read before. */
  rereads: number;
  /**
   * Bytes of content returned: UTF-8 bytes of text blocks and base64 characters of binary
   * ones (a byte chunk's base64 too, which only `structuredContent` carries), without the
   * JSON-RPC framing and without `structuredContent` that repeats the text.
   */
  bytesOut: number;
  /** Tokens returned, counted where a budget applies (calls without a budget add nothing). */
  tokensOut: number;
}

/**
 * The running counters of one operation. Plain numbers and a fixed-size histogram: every
 * call records here, so recording must cost next to nothing and memory must not grow.
 *
 * @example
 * ```ts
 * const stats = new OperationCounters();
 * stats.complete(3.2, false);
 * stats.snapshot(); // { calls: 1, errors: 0, p50Ms: 3.2, … }
 * ```
 */
export class OperationCounters {
  calls = 0;
  errors = 0;
  cacheHits = 0;
  cacheMisses = 0;
  continuations = 0;
  rereads = 0;
  bytesOut = 0;
  tokensOut = 0;
  private readonly latency = new LatencyHistogram();

  /** Counts one completed call that took `ms` milliseconds. */
  complete(ms: number, failed: boolean): void {
    this.calls++;
    if (failed) this.errors++;
    this.latency.record(ms);
  }

  snapshot(): OperationStats {
    return {
      calls: this.calls,
      errors: this.errors,
      p50Ms: roundMs(this.latency.percentile(0.5)),
      p95Ms: roundMs(this.latency.percentile(0.95)),
      cacheHits: this.cacheHits,
      cacheMisses: this.cacheMisses,
      continuations: this.continuations,
      rereads: this.rereads,
      bytesOut: this.bytesOut,
      tokensOut: this.tokensOut,
    };
  }
}

/** Microsecond precision is all a latency percentile can honestly claim. */
function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
