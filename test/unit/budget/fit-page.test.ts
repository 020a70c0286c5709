import { describe, expect, it } from "vitest";
import { fitPage } from "../../../src/budget/fit-page.js";
import { ResultPage } from "../../../src/pipeline/outcomes.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";

/** A page whose cursor is long: the envelope alone nearly fills a small budget. */
class LongCursorPage extends ResultPage<{ id: number; note: string }> {
  constructor(readonly items: Array<{ id: number; note: string }>) {
    super();
  }
  readonly hasMore = true;
  get nextCursor(): string {
    return "c".repeat(60) + this.items.length;
  }
  prefix(n: number): LongCursorPage {
    return new LongCursorPage(this.items.slice(0, n));
  }
  cursorAfter(index: number): string {
    return this.prefix(index + 1).nextCursor;
  }
  toJSON() {
    return { items: this.items, nextCursor: this.nextCursor, hasMore: true, count: this.items.length };
  }
}

const counter = new BpeTokenCounter();
const rendering = (limit: number) => ({ counter, limit, mode: "auto" as const });
const page = new LongCursorPage([
  { id: 1, note: "small item" },
  { id: 2, note: "another small item" },
]);

describe("fitPage", () => {
  it("delivers a first item that fits with the least envelope, though its cursor pushes it over", async () => {
    const fitted = await fitPage(page, rendering(20));
    expect(fitted.kind).toBe("fits");
    if (fitted.kind !== "fits") return;
    expect(fitted.page.items).toEqual([{ id: 1, note: "small item" }]);
    expect(fitted.page.nextCursor).not.toBeNull();
    expect(fitted.tokens).toBeGreaterThan(20);
  });

  it("reports an item over the budget even alone, with no cursor", async () => {
    const fitted = await fitPage(page, rendering(3));
    expect(fitted).toMatchObject({ kind: "firstItemTooLarge" });
    if (fitted.kind === "firstItemTooLarge") expect(fitted.tokens).toBeGreaterThan(3);
  });

  it("keeps the largest prefix that fits with its envelope", async () => {
    const fitted = await fitPage(page, rendering(1000));
    expect(fitted).toMatchObject({ kind: "fits", page });
  });
});
