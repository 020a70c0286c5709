import { ResultPage } from "../pipeline/outcomes.js";

/** Why an item was left out of a page. */
export interface SkippedItem {
  readonly position: number;
  readonly tokens: number;
  readonly budget: number;
  readonly reason: string;
}

/**
 * A page that returns no item because its first one alone is over the budget: it says so
 * (`skipped`) and how to go on after it (`nextCursor`). A page like any other for the
 * stages after the budget, so its text reads as every page's does (`[]`, then
 * `nextCursor=… hasMore=true skipped=[…]`).
 */
export class SkippedPage extends ResultPage<never> {
  readonly items: readonly never[] = [];

  constructor(
    private readonly next: string | null,
    readonly hasMore: boolean,
    readonly skipped: readonly SkippedItem[],
  ) {
    super();
  }

  get nextCursor(): string | null {
    return this.next;
  }

  prefix(): ResultPage<never> {
    return this;
  }

  cursorAfter(): string | null {
    return this.next;
  }

  toJSON(): Record<string, unknown> {
    return {
      items: [],
      nextCursor: this.next,
      hasMore: this.hasMore,
      count: 0,
      skipped: this.skipped,
    };
  }
}
