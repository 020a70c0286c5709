import { describe, expect, it } from "vitest";
import { ProtocolError } from "../../../../src/errors/protocol-errors.js";
import { pageOfList } from "../../../../src/protocol/operations/list-pages.js";

const letters = [..."abcdefg"];
const cursorOf = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString("base64url");

/** Every page of a list, following `nextCursor` until the last page. */
function walk<T>(items: readonly T[], pageSize: number, listName = "tools/list"): T[][] {
  const pages: T[][] = [];
  let cursor: string | undefined;
  do {
    const page = pageOfList(items, cursor, pageSize, listName);
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length <= items.length);
  return pages;
}

describe("pageOfList", () => {
  it("answers a short list in one page without nextCursor", () => {
    const page = pageOfList(letters, undefined, 10, "tools/list");
    expect(page).toEqual({ items: letters });
    expect("nextCursor" in page).toBe(false);
    expect(pageOfList([], undefined, 10, "tools/list")).toEqual({ items: [] });
  });

  it("walks a long list page by page, each item once, in order", () => {
    expect(walk(letters, 3)).toEqual([["a", "b", "c"], ["d", "e", "f"], ["g"]]);
  });

  it("has no nextCursor on a last page that is exactly full", () => {
    expect(walk([..."abcd"], 2)).toEqual([
      ["a", "b"],
      ["c", "d"],
    ]);
    expect(pageOfList([..."ab"], undefined, 2, "tools/list")).toEqual({ items: ["a", "b"] });
  });

  it("answers a copy, not the caller's array", () => {
    const page = pageOfList(letters, undefined, 10, "tools/list");
    expect(page.items).not.toBe(letters);
  });

  it("refuses a cursor of another list", () => {
    const next = pageOfList(letters, undefined, 2, "tools/list").nextCursor;
    expect(next).toBeDefined();
    const error = (() => {
      try {
        pageOfList(letters, next, 2, "prompts/list");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(-32602);
    expect((error as ProtocolError).message).toBe(
      "Invalid cursor for prompts/list: list again without a cursor to start from the first page.",
    );
  });

  it.each([
    ["an empty string", ""],
    ["text that is not base64url JSON", "not a cursor!"],
    ["JSON null", cursorOf(null)],
    ["a JSON array", cursorOf([0])],
    ["a missing offset", cursorOf({ l: "tools/list" })],
    ["a negative offset", cursorOf({ l: "tools/list", o: -2 })],
    ["a fractional offset", cursorOf({ l: "tools/list", o: 1.5 })],
    ["an offset as a string", cursorOf({ l: "tools/list", o: "2" })],
    ["an unsafe integer offset", cursorOf({ l: "tools/list", o: 2 ** 60 })],
    ["a missing list name", cursorOf({ o: 2 })],
  ])("refuses %s as a cursor", (_, cursor) => {
    expect(() => pageOfList(letters, cursor, 2, "tools/list")).toThrow(ProtocolError);
  });

  it("accepts a well-formed cursor past the end as an empty last page", () => {
    expect(pageOfList(letters, cursorOf({ l: "tools/list", o: 100 }), 2, "tools/list")).toEqual({
      items: [],
    });
  });
});
