/** Buckets per doubling of the duration: each bucket is 2^(1/16) ≈ 4.4 % wide. */
const PER_OCTAVE = 16;
/** From 1 µs to 2^30 µs (about 18 minutes); longer calls land in the last bucket. */
const BUCKETS = 30 * PER_OCTAVE;

/**
 * Latency percentiles in fixed memory: a log-scale histogram of 480 counters (about 2 KB
 * per operation, however many calls). A percentile is the geometric middle of its bucket,
 * so it is within about 2.2 % of the true value, and it is clamped to the smallest and
 * largest durations seen, so a single call reads back exactly. Recording is O(1) and never
 * allocates, which matters because every call records (a reservoir sample would need
 * random numbers and a sort per read, and a sliding window would need memory per call).
 *
 * @example
 * ```ts
 * const latency = new LatencyHistogram();
 * latency.record(12.5); // ms
 * latency.percentile(0.95); // ≈ 12.5
 * ```
 */
export class LatencyHistogram {
  private readonly counts = new Uint32Array(BUCKETS);
  private total = 0;
  private min = Number.POSITIVE_INFINITY;
  private max = 0;

  /** Records one duration, in milliseconds. */
  record(ms: number): void {
    const us = ms * 1000;
    const index = us <= 1 ? 0 : Math.min(BUCKETS - 1, Math.floor(Math.log2(us) * PER_OCTAVE));
    this.counts[index] = (this.counts[index] ?? 0) + 1;
    this.total++;
    if (ms < this.min) this.min = ms;
    if (ms > this.max) this.max = ms;
  }

  /** Durations recorded. */
  get count(): number {
    return this.total;
  }

  /** The duration (ms) below which a fraction `q` (0 to 1) of the calls fell; 0 before any call. */
  percentile(q: number): number {
    if (this.total === 0) return 0;
    // The rank of the value asked for, counted from 1 (nearest-rank method).
    const rank = Math.max(1, Math.ceil(q * this.total));
    let seen = 0;
    for (let index = 0; index < BUCKETS; index++) {
      seen += this.counts[index] ?? 0;
      if (seen >= rank) {
        // The last bucket is open-ended: the longest call seen is its only honest value.
        if (index === BUCKETS - 1) return this.max;
        const middleUs = 2 ** ((index + 0.5) / PER_OCTAVE);
        return Math.min(this.max, Math.max(this.min, middleUs / 1000));
      }
    }
    return this.max;
  }
}
