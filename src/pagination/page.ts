import { fieldOf } from "../common/guards.js";
import { ResultPage } from "../pipeline/outcomes.js";
import type { KeyValue } from "./cursor-values.js";

/**
 * Makes the cursor that continues after an item with this key; `returned` is how many
 * items the page really returns up to and including it (an adaptive walk grows from it).
 */
export type CursorMaker = (key: Record<string, KeyValue>, returned: number) => string;

/** What a page carries besides its items and keys. */
export interface PageExtras {
  /** Extra envelope fields computed from the page's keys (stream chunks describe their range). */
  readonly describe?: PageDescriber;
  /** The number of items of the whole walk, as the handler knows it (`{ items, total }`). */
  readonly total?: number;
  /** The items are `resource_link` objects (`as: "links"`). */
  readonly links?: boolean;
  /** One line of text per item (`line`), in order; a prefix of the page reads its first ones. */
  readonly lines?: readonly string[];
  /** The envelope fields the text leaves out (what the items already say), from the page's keys. */
  readonly textLeavesOut?: (
    keys: ReadonlyArray<Record<string, KeyValue>>,
    hasMore: boolean,
  ) => readonly string[];
}

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
    makeCursor: CursorMaker,
    private readonly extras: PageExtras = {},
  ) {
    super();
    this.makeCursor = memoized(makeCursor);
  }

  /**
   * Makes the cursor after the item at a position, once per position for this page and its
   * prefixes: a cursor carries its expiry (and, encrypted, a random nonce), so making it again
   * gives other characters. The budget measures a page with the cursor it then sends.
   */
  private readonly makeCursor: CursorMaker;

  /** The cursor of the next page, or null on the last one. */
  get nextCursor(): string | null {
    const last = this.keys[this.keys.length - 1];
    return this.hasMore && last ? this.makeCursor(last, this.keys.length) : null;
  }

  /** The first `n` items; the next page then starts right after the last of them. */
  prefix(n: number): Page<T> {
    if (n >= this.items.length) return this;
    return new Page(this.items.slice(0, n), this.keys.slice(0, n), true, this.makeCursor, this.extras);
  }

  /** The cursor that continues after item `index` (used to skip an item too large to return). */
  cursorAfter(index: number): string | null {
    const key = this.keys[index];
    return key ? this.makeCursor(key, index + 1) : null;
  }

  toJSON(): Record<string, unknown> {
    const { describe, total } = this.extras;
    const envelope = {
      items: this.items,
      nextCursor: this.nextCursor,
      hasMore: this.hasMore,
      count: this.count,
      ...(total === undefined ? {} : { total }),
    };
    return describe ? { ...envelope, ...describe(this.keys, this.hasMore) } : envelope;
  }

  override get textLeavesOut(): readonly string[] {
    return this.extras.textLeavesOut?.(this.keys, this.hasMore) ?? [];
  }

  /** A page of links reads as links; a page with `line` reads as its lines; others as a table or JSON. */
  override get itemText(): readonly string[] | "links" | undefined {
    const { links, lines } = this.extras;
    if (links) return "links";
    return lines && lines.length > this.count ? lines.slice(0, this.count) : lines;
  }
}

const MEMOIZED = Symbol("frugal.memoizedCursors");

/** `make`, remembering each position's cursor (a page and its prefixes share one memo). */
function memoized(make: CursorMaker): CursorMaker {
  if (fieldOf(make, MEMOIZED)) return make;
  const made = new Map<number, string>();
  const remembered: CursorMaker = (key, count) => {
    let cursor = made.get(count);
    if (cursor === undefined) {
      cursor = make(key, count);
      made.set(count, cursor);
    }
    return cursor;
  };
  return Object.assign(remembered, { [MEMOIZED]: true as const });
}
