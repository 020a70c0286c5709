/** Options of `@Budget`. */
export interface BudgetOptions {
  /**
   * What to do with a result over the budget. By default: a `@Paginated` page shrinks, an
   * `@Ephemeral` result spills into a resource, anything else answers
   * `OUTPUT_BUDGET_EXCEEDED`. `"error"` always answers the error.
   */
  onExceed?: "auto" | "error";
}

/** What `@Budget(tokens, options)` records, on a method or a service class. */
export interface RecordedBudget {
  readonly tokens: number;
  readonly options: BudgetOptions;
}

/**
 * The budget that applies to an operation: its method's, else its class's, else the app's.
 * `tokens` is undefined where none applies: the stage then only honours a client's
 * per-call `_meta["frugal/maxTokens"]`.
 */
export interface BudgetSpec {
  readonly tokens: number | undefined;
  /** `"error"`: always answer `OUTPUT_BUDGET_EXCEEDED` rather than shrink or spill. */
  readonly onExceed: "auto" | "error";
}
