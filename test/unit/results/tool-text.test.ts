import { describe, expect, it } from "vitest";
import { itemsFieldOf, toolTextOf, withItemsText, withToolText } from "../../../src/results/tool-text.js";

describe("withToolText / toolTextOf", () => {
  it("gives an object its text without making it part of the object's JSON", () => {
    const chunk = withToolText({ offset: 0, byteCount: 3 }, "3 bytes at offset 0");
    expect(toolTextOf(chunk)).toBe("3 bytes at offset 0");
    expect(JSON.stringify(chunk)).toBe('{"offset":0,"byteCount":3}');
    expect(Object.keys(chunk)).toEqual(["offset", "byteCount"]);
  });

  it("is lost by a copy, so a copy is answered as plain JSON again", () => {
    const chunk = withToolText({ offset: 0 }, "text");
    expect(toolTextOf({ ...chunk })).toBeUndefined();
  });

  it("can be given again, and reads nothing from values that carry none", () => {
    const value = withToolText(withToolText({}, "first"), "second");
    expect(toolTextOf(value)).toBe("second");
    expect(toolTextOf({})).toBeUndefined();
    expect(toolTextOf(null)).toBeUndefined();
    expect(toolTextOf("a string")).toBeUndefined();
  });
});

describe("withItemsText / itemsFieldOf", () => {
  it("names the items field without making it part of the object's JSON, and a copy loses it", () => {
    const answer = withItemsText({ matches: [{ a: 1 }], count: 1 }, "matches");
    expect(itemsFieldOf(answer)).toBe("matches");
    expect(JSON.stringify(answer)).toBe('{"matches":[{"a":1}],"count":1}');
    expect(itemsFieldOf({ ...answer })).toBeUndefined();
    expect(itemsFieldOf(null)).toBeUndefined();
    expect(itemsFieldOf("text")).toBeUndefined();
  });
});
