import type { EntryMatcher } from "./result-cache.js";

/**
 * One running cache miss that identical calls wait for. Its signal aborts only when
 * every waiting caller has cancelled, so one caller giving up never cancels the others.
 *
 * A flight stops being joinable (`joinable` false) once an invalidation marked it stale
 * (its answer predates a write that was acknowledged) or once every caller cancelled (its
 * run is being aborted): a caller that arrives then starts its own run instead of sharing
 * an old or cancelled one.
 */
export class Flight {
  readonly promise: Promise<unknown>;
  /** Set when an invalidation arrived during the computation: its result must not be cached. */
  stale = false;
  private readonly controller = new AbortController();
  /** Callers' signals, each with the listener this flight added to it (removed once settled). */
  private readonly callers: Array<{ signal: AbortSignal; onAbort: () => void }> = [];
  private settled = false;
  private settle!: { resolve: (value: unknown) => void; reject: (error: unknown) => void };

  constructor(
    readonly namespace: string,
    readonly input: unknown,
    firstCaller: AbortSignal,
  ) {
    this.promise = new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Waiters that arrive after a failure must see it, but nobody may see an unhandled rejection.
    this.promise.catch(() => {});
    this.join(firstCaller);
  }

  /** The signal the shared computation runs with. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether a new caller may share this run: not settled, not stale, not abandoned by every caller. */
  get joinable(): boolean {
    return !this.settled && !this.stale && !this.controller.signal.aborted;
  }

  join(caller: AbortSignal): void {
    if (this.settled) return;
    const onAbort = () => this.abortIfAbandoned();
    this.callers.push({ signal: caller, onAbort });
    if (!caller.aborted) caller.addEventListener("abort", onAbort, { once: true });
    this.abortIfAbandoned();
  }

  resolve(value: unknown): void {
    this.settle.resolve(value);
    this.release();
  }

  reject(error: unknown): void {
    this.settle.reject(error);
    this.release();
  }

  /** Removes the listeners this flight put on its callers' signals: a settled flight holds on to nothing. */
  private release(): void {
    if (this.settled) return;
    this.settled = true;
    for (const { signal, onAbort } of this.callers) signal.removeEventListener("abort", onAbort);
    this.callers.length = 0;
  }

  private abortIfAbandoned(): void {
    if (this.settled || this.controller.signal.aborted) return;
    if (this.callers.every((c) => c.signal.aborted)) this.controller.abort(this.callers[0]?.signal.reason);
  }
}

/**
 * The running misses of one app. `get` finds the flight a caller may join (by cache key);
 * every flight still running, joinable or not, is kept until it finishes, so an
 * invalidation also marks one that a newer flight of the same key replaced.
 */
export class SingleFlight {
  private readonly joinableByKey = new Map<string, Flight>();
  private readonly running = new Set<Flight>();

  /** The flight of `key` a new caller may join, if any (never a stale or abandoned one). */
  get(key: string): Flight | undefined {
    const flight = this.joinableByKey.get(key);
    if (flight && !flight.joinable) {
      this.joinableByKey.delete(key);
      return undefined;
    }
    return flight;
  }

  start(key: string, namespace: string, input: unknown, caller: AbortSignal): Flight {
    const flight = new Flight(namespace, input, caller);
    this.joinableByKey.set(key, flight);
    this.running.add(flight);
    return flight;
  }

  finish(key: string, flight: Flight): void {
    this.running.delete(flight);
    if (this.joinableByKey.get(key) === flight) this.joinableByKey.delete(key);
  }

  /** Running flights (for tests and diagnostics). */
  get size(): number {
    return this.running.size;
  }

  /** Marks running misses of a namespace (those `match` accepts) as stale. */
  markStale(namespace: string, match?: EntryMatcher): void {
    for (const flight of this.running) {
      if (!flight.stale && flight.namespace === namespace && (!match || match(flight.input))) {
        flight.stale = true;
      }
    }
  }
}
