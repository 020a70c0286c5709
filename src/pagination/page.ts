import { ResultPage } from "../pipeline/outcomes.js";
import type { KeyValue } from "./cursor-values.js";

/** Makes the cursor that continues after an item with this key. */
export type CursorMaker = (key: Record<string, KeyValue>) => string;

/** Extra envelope fields computed from a page's keys (stream chunks describe their range). */
export type PageDescriber = (
  keys: ReadonlyArray<Record<string, KeyValue>>,
  hasMore: boolean,
) => Record<string, unknown>;

/**
 * One page of a paginated result. Serializes to the contract's envelope
 * `{ items, nextCursor, hasMore, count }`; keeps each item's key so a later stage (the
 * budget) can shrink it to a prefix whose `nextCursor` follows what was really returned.
 */
export class Page<T = unknown> extends ResultPage<T> {
  constructor(
    readonly items: readonly T[],
    private readonly keys: ReadonlyArray<Record<string, KeyValue>>,
    /** True when items exist after the last one returned. */
    readonly hasMore: boolean,
    private readonly makeCursor: CursorMaker,
    private readonly describe?: PageDescriber,
  ) {
    super();
  }

  /** The cursor of the next page, or null on the last one. */
  get nextCursor(): string | null {
    const last = this.keys[this.keys.length - 1];
    return this.hasMore && last ? this.makeCursor(last) : null;
  }

  /** The first `n` items; the next page then starts right after the last of them. */
  prefix(n: number): Page<T> {
    if (n >= this.items.length) return this;
    return new Page(this.items.slice(0, n), this.keys.slice(0, n), true, this.makeCursor, this.describe);
  }

  /** The cursor that continues after item `index` (used to skip an item too large to return). */
  cursorAfter(index: number): string | null {
    const key = this.keys[index];
    return key ? this.makeCursor(key) : null;
  }

  toJSON(): Record<string, unknown> {
    const envelope = {
      items: this.items,
      nextCursor: this.nextCursor,
      hasMore: this.hasMore,
      count: this.count,
    };
    return this.describe ? { ...envelope, ...this.describe(this.keys, this.hasMore) } : envelope;
  }
}
