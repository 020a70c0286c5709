import { ResultPage } from "../pipeline/outcomes.js";

/**
 * The first item of a page with the least envelope (no cursor, no range, `hasMore: false`):
 * what the budget measures to tell an item alone over the budget from one that only the
 * envelope pushes over it. Never sent.
 */
export class LoneItemPage extends ResultPage {
  readonly hasMore = false;
  readonly items: readonly unknown[];

  constructor(private readonly source: ResultPage) {
    super();
    this.items = source.items.slice(0, 1);
  }

  get nextCursor(): null {
    return null;
  }

  override get itemText(): readonly string[] | "links" | undefined {
    const text = this.source.itemText;
    return Array.isArray(text) ? text.slice(0, 1) : text;
  }

  prefix(): ResultPage {
    return this;
  }

  cursorAfter(): null {
    return null;
  }

  toJSON(): Record<string, unknown> {
    return { items: this.items, nextCursor: null, hasMore: false, count: this.items.length };
  }
}
