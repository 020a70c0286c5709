/** Options of `@Ephemeral`. */
export interface EphemeralOptions {
  /** `"overBudget"` (default) stores only results over the budget; `"always"` stores every result. */
  when?: "overBudget" | "always";
  /** How long the resource lives, in milliseconds (default: `ephemeral.defaultTtlMs`, 24 hours). */
  ttl?: number;
  /** MIME type of the stored content (default `application/json`, or `text/plain` for strings). */
  mimeType?: string;
  /** Name of the resource (and its `resource_link`); default: the tool's name. */
  name?: string;
  description?: string;
  /** `"owner"` (default): only the caller may list and read it; `"global"`: everyone. */
  scope?: "owner" | "global";
  /**
   * The preview (the first items or lines) in the summary of a stored result: `true` (default)
   * holds the summary and its preview to 200 tokens, a number to that many tokens, `false`
   * leaves the preview out.
   */
  preview?: boolean | number;
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
