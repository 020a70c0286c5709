import { describe, expect, it } from "vitest";
import { declaredValue } from "../../../src/ephemeral/declared-content.js";
import { readWindow, WindowError } from "../../../src/ephemeral/text-window.js";

const body = "é🚀".repeat(200_000);
const items = declaredValue("t://items", [{ id: 1, body, tags: ["a"] }], "application/json");
const value = declaredValue("t://value", { note: { text: "hello world" } }, "application/json");
const lines = declaredValue("t://lines", "one\ntwo two\nthree", "text/plain");
const window = (
  stored: typeof items,
  target: { index?: number; path?: string },
  offset: number,
  limit: number,
) => readWindow(stored.content, stored.meta, target, offset, limit);

describe("readWindow", () => {
  it("reads characters of a long field read in pieces, counting UTF-16 units", async () => {
    const first = await window(items, { index: 0, path: "/body" }, 0, 5);
    expect(first).toEqual({ text: body.slice(0, 5), offset: 0, nextOffset: 5, totalChars: body.length });
    const last = await window(items, { index: 0, path: "/body" }, body.length - 3, 10);
    expect(last).toEqual({
      text: body.slice(-3),
      offset: body.length - 3,
      nextOffset: null,
      totalChars: body.length,
    });
  });

  it("reads a JSON value's field, a line, and an item's JSON text", async () => {
    expect((await window(value, { path: "/note/text" }, 6, 100)).text).toBe("world");
    expect((await window(lines, { index: 1 }, 4, 3)).text).toBe("two");
    const small = declaredValue("t://small", [{ a: 1 }], "application/json");
    expect((await window(small, { index: 0 }, 0, 100)).text).toBe('{"a":1}');
  });

  it("refuses what is not a string field, out-of-range places, and offsets past the end", async () => {
    await expect(window(items, { index: 0, path: "/tags" }, 0, 5)).rejects.toThrow(
      /an array, not a string field/,
    );
    await expect(window(items, { index: 2, path: "/body" }, 0, 5)).rejects.toThrow(/index 2 is out of range/);
    await expect(window(items, { path: "/body" }, 0, 5)).rejects.toThrow(/give index/);
    await expect(window(value, { path: "/note/text" }, 12, 5)).rejects.toThrow(/offset 12 is past the end/);
    await expect(window(lines, { index: 0, path: "/x" }, 0, 5)).rejects.toThrow(WindowError);
  });
});
