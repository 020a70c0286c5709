/**
 * Resolved specs: what the builder makes of the decorators' options at start-up, after
 * checking them and filling defaults. They live on the frozen definition of each
 * operation, so pipeline stages never read raw metadata.
 */

/** The budget that applies to an operation: its method's, else its class's, else the app's. */
export interface BudgetSpec {
  readonly tokens: number;
  /** `"error"`: always answer `OUTPUT_BUDGET_EXCEEDED` rather than shrink or spill. */
  readonly onExceed: "auto" | "error";
}

/** `@Ephemeral`, checked and with defaults. */
export interface SpillSpec {
  readonly when: "overBudget" | "always";
  readonly ttl: number | undefined;
  readonly mimeType: string | undefined;
  /** Name of the stored resource (default: the tool's name). */
  readonly name: string;
  readonly description: string | undefined;
  readonly scope: "owner" | "global";
  /** Most tokens of the summary with its preview (0: no preview). */
  readonly preview: number;
}
