/** Supplies the time to everything that expires (caches, storage, cursors), so tests can move it. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/**
 * The real clock, the default `CLOCK` provider.
 *
 * @example
 * ```ts
 * const clock = new SystemClock();
 * clock.now(); // Date.now()
 * ```
 */
export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }
}

/**
 * A clock that only moves when told to: register it as the `CLOCK` provider in tests.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(0);
 * clock.advance(60_000); // a minute later
 * ```
 */
export class ManualClock implements Clock {
  constructor(private current = 0) {}
  now(): number {
    return this.current;
  }
  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void {
    this.current += ms;
  }
  /** Sets the time to `epochMs`. */
  set(epochMs: number): void {
    this.current = epochMs;
  }
}
