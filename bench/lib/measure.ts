/**
 * Timing helpers shared by the benchmarks under bench/.
 *
 * `runInterleaved` warms every contender up (then runs one full GC when node has
 * `--expose-gc`), then runs rounds; in each round it times a batch of sequential
 * operations for every contender, rotating the order from round to round so that drift
 * (CPU steal, GC, other load) hits every contender alike. Compare contenders with
 * `medianRatio`, the median of per-round ratios: keep rounds short (a fraction of a
 * second) and the machine barely changes within a round, so the ratio cancels its drift.
 */

/** One thing to time: `once` performs one operation (e.g. one tool call) and resolves. */
export interface Contender {
  readonly name: string;
  readonly once: () => Promise<unknown>;
}

export interface RoundsOptions {
  /** Operations per contender before any timing. */
  readonly warmup: number;
  readonly rounds: number;
  /** Sequential operations timed per contender per round. */
  readonly opsPerRound: number;
  /** Called after each round with the µs/operation of every contender in that round. */
  readonly onRound?: (round: number, perOpUs: ReadonlyMap<string, number>) => void;
}

/** Per contender, its µs/operation in each round (index = round). */
export type Samples = ReadonlyMap<string, readonly number[]>;

/** The `q`-quantile (0 ≤ q ≤ 1), interpolating linearly between the two nearest values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) throw new RangeError("quantile of no values");
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (at - below);
}

/** The median; the mean of the two middle values for an even count. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** Runs a full GC when node was started with `--expose-gc`; otherwise does nothing. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Mean µs per operation over `n` sequential operations. */
export async function timeSequential(once: () => Promise<unknown>, n: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await once();
  return Number(process.hrtime.bigint() - start) / 1e3 / n;
}

/** Warms up, then runs interleaved rounds in rotating order (see the header). */
export async function runInterleaved(
  contenders: readonly Contender[],
  options: RoundsOptions,
): Promise<Samples> {
  for (const contender of contenders) await timeSequential(contender.once, options.warmup);
  collectGarbage();
  const samples = new Map(contenders.map((c) => [c.name, [] as number[]]));
  for (let round = 0; round < options.rounds; round++) {
    const thisRound = new Map<string, number>();
    for (let i = 0; i < contenders.length; i++) {
      const contender = contenders[(round + i) % contenders.length];
      const perOp = await timeSequential(contender.once, options.opsPerRound);
      thisRound.set(contender.name, perOp);
      samples.get(contender.name)?.push(perOp);
    }
    options.onRound?.(round, thisRound);
  }
  return samples;
}

/** `numerator / denominator` in each round, each ratio taken within one round. */
export function roundRatios(samples: Samples, numerator: string, denominator: string): number[] {
  const top = samples.get(numerator);
  const bottom = samples.get(denominator);
  if (!top || !bottom) throw new RangeError(`no samples for "${numerator}" or "${denominator}"`);
  return top.map((value, round) => value / bottom[round]);
}

/** Median over rounds of `numerator / denominator` (see `roundRatios`). */
export function medianRatio(samples: Samples, numerator: string, denominator: string): number {
  return median(roundRatios(samples, numerator, denominator));
}

/** Median and interquartile range, rounded for a report. */
export interface Spread {
  median: number;
  p25: number;
  p75: number;
}

/** `values` as a median and interquartile range, rounded to `digits`. */
export function spreadOf(values: readonly number[], digits: number): Spread {
  const round = (x: number) => Number(x.toFixed(digits));
  return {
    median: round(median(values)),
    p25: round(quantile(values, 0.25)),
    p75: round(quantile(values, 0.75)),
  };
}

/**
 * The overhead benches' measurement: `bare`, `control` and `frugal` contenders run
 * interleaved (progress every 25 rounds on stderr), reported as µs/call and as ratios to
 * `bare` (median of per-round ratios).
 */
export async function measureAgainstBare(
  contenders: readonly Contender[],
  options: { warmup: number; rounds: number; callsPerRound: number },
) {
  const started = Date.now();
  const samples = await runInterleaved(contenders, {
    warmup: options.warmup,
    rounds: options.rounds,
    opsPerRound: options.callsPerRound,
    onRound: (round, perCall) => {
      if ((round + 1) % 25 !== 0 && round + 1 !== options.rounds) return;
      const line = [...perCall].map(([name, us]) => `${name} ${us.toFixed(1)} µs`).join(", ");
      process.stderr.write(`round ${round + 1}/${options.rounds}: ${line}\n`);
    },
  });
  return {
    samples,
    seconds: (Date.now() - started) / 1000,
    usPerCall: Object.fromEntries(contenders.map((c) => [c.name, spreadOf(samples.get(c.name) ?? [], 2)])),
    toBare: {
      control: spreadOf(roundRatios(samples, "control", "bare"), 3),
      frugal: spreadOf(roundRatios(samples, "frugal", "bare"), 3),
    },
  };
}
