import { describe, expect, it } from "vitest";
import { itemLines, itemLinks } from "../../../src/pagination/item-links.js";

const articles = [
  { url: "res://a/1", title: "One" },
  { url: "res://a/2", title: "Two" },
  { url: "res://a/3", title: "Three" },
];

describe("itemLinks and itemLines", () => {
  it("make a link or a line of each of the first items", () => {
    expect(itemLinks((a) => ({ uri: (a as { url: string }).url, name: "x" }), articles, 2, "A.list")).toEqual(
      [
        { uri: "res://a/1", name: "x" },
        { uri: "res://a/2", name: "x" },
      ],
    );
    expect(itemLines((a) => (a as { title: string }).title, articles, 3, "A.list")).toEqual([
      "One",
      "Two",
      "Three",
    ]);
  });

  it("refuse what is not a link or a line, naming the operation", () => {
    expect(() => itemLinks(() => ({ uri: "" }), articles, 1, "A.list")).toThrow(
      'A.list: @Paginated\'s link(item) must return { uri, name } with non-empty strings, not {"uri":""}',
    );
    expect(() => itemLines(() => 42, articles, 1, "A.list")).toThrow(
      "A.list: @Paginated's line(item) must return a string, not 42",
    );
    expect(() => itemLines(() => [], articles, 1, "A.list")).toThrow("not an array");
  });
});
