/**
 * An `invalidateOn` entry: an event name, or an event with a matcher that drops only the
 * entries whose input matches the event's payload.
 */
export type InvalidationRule =
  | string
  | {
      event: string;
      /** True to drop the entry cached for `input` (the handler's input) on this event's `payload`; a throw drops it too. */
      match: (input: any, payload: any) => boolean;
    };

/** Options of `@Cached`. */
export interface CachedOptions {
  /** Time to live, in milliseconds. */
  ttl: number;
  /** Events that drop the cached results at once. */
  invalidateOn?: readonly InvalidationRule[];
  /** `"owner"` (default for tools) keeps one caller's results from another; `"global"` (default for resources) shares them. */
  scope?: "owner" | "global";
}

/** `@Cached`, checked and with its scope decided (tools: owner, resources: global). */
export interface CacheSpec {
  readonly ttl: number;
  readonly invalidateOn: readonly InvalidationRule[];
  readonly scope: "owner" | "global";
}
