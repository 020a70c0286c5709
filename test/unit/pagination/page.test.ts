import { describe, expect, it } from "vitest";
import { Page } from "../../../src/pagination/page.js";

describe("Page cursors", () => {
  // A cursor carries its expiry (and, encrypted, a random nonce): made twice, it differs.
  const fresh = () => {
    let made = 0;
    return (key: Record<string, unknown>, returned: number) => `c${returned}:${String(key.id)}:${++made}`;
  };
  const keys = [{ id: 1 }, { id: 2 }, { id: 3 }];

  it("makes each position's cursor once, so the budget measures the cursor it then sends", () => {
    const page = new Page(["a", "b", "c"], keys, true, fresh());
    expect(page.nextCursor).toBe(page.nextCursor);
    expect(JSON.stringify(page)).toBe(JSON.stringify(page));
  });

  it("shares them with its prefixes: a shrunk page's nextCursor is the cursor measured after that item", () => {
    const page = new Page(["a", "b", "c"], keys, true, fresh());
    const after = page.cursorAfter(1);
    expect(page.prefix(2).nextCursor).toBe(after);
    expect(page.prefix(2).prefix(2).nextCursor).toBe(after);
  });
});

describe("Page textLeavesOut", () => {
  it("asks the page's keys and hasMore, for the page and for each prefix", () => {
    const seen: Array<[number, boolean]> = [];
    const page = new Page([1, 2, 3], [{ id: 1 }, { id: 2 }, { id: 3 }], false, () => "c", {
      textLeavesOut: (keys, hasMore) => {
        seen.push([keys.length, hasMore]);
        return hasMore ? ["first"] : ["first", "until"];
      },
    });
    expect(page.textLeavesOut).toEqual(["first", "until"]);
    expect(page.prefix(2).textLeavesOut).toEqual(["first"]);
    expect(seen).toEqual([
      [3, false],
      [2, true],
    ]);
    expect(new Page([1], [{ id: 1 }], false, () => "c").textLeavesOut).toEqual([]);
  });
});
