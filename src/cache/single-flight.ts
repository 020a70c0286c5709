import type { EntryMatcher } from "./result-cache.js";

/**
 * One running cache miss that identical calls wait for. Its signal aborts only when
 * every waiting caller has cancelled, so one caller giving up never cancels the others.
 */
export class Flight {
  readonly promise: Promise<unknown>;
  /** Set when an invalidation arrived during the computation: its result must not be cached. */
  stale = false;
  private readonly controller = new AbortController();
  private readonly callers: AbortSignal[] = [];
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

  join(caller: AbortSignal): void {
    this.callers.push(caller);
    caller.addEventListener("abort", () => this.abortIfAbandoned(), { once: true });
    this.abortIfAbandoned();
  }

  resolve(value: unknown): void {
    this.settle.resolve(value);
  }

  reject(error: unknown): void {
    this.settle.reject(error);
  }

  private abortIfAbandoned(): void {
    if (this.callers.every((s) => s.aborted)) this.controller.abort(this.callers[0]?.reason);
  }
}

/** The running misses of one app, by cache key. */
export class SingleFlight {
  private readonly flights = new Map<string, Flight>();

  get(key: string): Flight | undefined {
    return this.flights.get(key);
  }

  start(key: string, namespace: string, input: unknown, caller: AbortSignal): Flight {
    const flight = new Flight(namespace, input, caller);
    this.flights.set(key, flight);
    return flight;
  }

  finish(key: string, flight: Flight): void {
    if (this.flights.get(key) === flight) this.flights.delete(key);
  }

  /** Marks running misses of a namespace (those `match` accepts) as stale. */
  markStale(namespace: string, match?: EntryMatcher): void {
    for (const flight of this.flights.values()) {
      if (flight.namespace === namespace && (!match || match(flight.input))) flight.stale = true;
    }
  }
}
