/**
 * What stages learn about a call, for the stages around them and for the app's counters.
 * The pipeline owns these names, so no capability needs to know another.
 */
export interface CallOutcome {
  /**
   * False when the result must not be kept for later calls: it links to a resource that
   * expires, or a live source was cut short and another read may find more.
   */
  keepable: boolean;
  /** Tokens the model reads, when a budget counted them. */
  tokens: number | undefined;
  /** Items of the page returned, under `@Paginated` (set when the page is shaped, after the budget). */
  pageCount: number | undefined;
  /**
   * How much longer (ms) this very result stays fresh, when a stage keeps it (the cache, on
   * a hit or a store): the 2026-07-28 registrar turns it into the result's `ttlMs`.
   */
  freshForMs: number | undefined;
  /** True when that kept result is the same for every caller (not scoped to an owner): `cacheScope` "public". */
  sharedAcrossOwners: boolean;
  /** What capabilities report beyond these fields (read and written with `OutcomeKey`); made on first use. */
  reports: Map<OutcomeKey<unknown>, unknown> | undefined;
}

/**
 * A typed report a capability adds to a call's outcome, for the app's counters and
 * observers (a kept result served, or a miss). The capability owns the key; whoever counts
 * it imports the key from that capability's folder.
 *
 * @example
 * ```ts
 * export const RATE_LIMITED = new OutcomeKey<boolean>("rateLimit.refused");
 * RATE_LIMITED.set(call.outcome, true);      // in the capability's stage
 * RATE_LIMITED.get(outcome) === true;        // in an observer, after the call
 * ```
 */
export class OutcomeKey<T> {
  constructor(readonly name: string) {}

  /** Reports `value` on this call's outcome (a later report replaces it). */
  set(outcome: CallOutcome, value: T): void {
    outcome.reports ??= new Map();
    outcome.reports.set(this, value);
  }

  /** The reported value, or `undefined` when the call reported none (or had no outcome). */
  get(outcome: CallOutcome | undefined): T | undefined {
    return outcome?.reports?.get(this) as T | undefined;
  }
}
