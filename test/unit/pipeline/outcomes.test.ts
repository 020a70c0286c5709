import { describe, expect, it } from "vitest";
import { isErrorResult, Oversized, ResultPage } from "../../../src/pipeline/outcomes.js";

class ListPage extends ResultPage<string> {
  constructor(
    readonly items: readonly string[],
    readonly hasMore: boolean,
  ) {
    super();
  }
  get nextCursor() {
    return this.hasMore ? `after:${this.items.at(-1)}` : null;
  }
  prefix(n: number) {
    return new ListPage(this.items.slice(0, n), n < this.items.length || this.hasMore);
  }
  cursorAfter(index: number) {
    return `after:${this.items[index]}`;
  }
  toJSON() {
    return { items: this.items, nextCursor: this.nextCursor, hasMore: this.hasMore, count: this.count };
  }
}

describe("ResultPage", () => {
  it("counts its items and reads them as a table or JSON by default", () => {
    const page = new ListPage(["a", "b", "c"], false);
    expect(page.count).toBe(3);
    expect(page.prefix(2).count).toBe(2);
    expect(page.itemText).toBeUndefined();
  });
});

describe("Oversized", () => {
  it("carries the value with its size and the token limit it passed", () => {
    const over = new Oversized(["x"], 5000, 2000);
    expect(over).toMatchObject({ value: ["x"], tokens: 5000, limit: 2000 });
  });
});

describe("isErrorResult", () => {
  it("is true only for a result that says isError: true", () => {
    expect(isErrorResult({ content: [], isError: true })).toBe(true);
    expect(isErrorResult({ content: [], isError: false })).toBe(false);
    expect(isErrorResult({ isError: "true" })).toBe(false);
    expect(isErrorResult(null)).toBe(false);
    expect(isErrorResult("isError")).toBe(false);
  });
});
