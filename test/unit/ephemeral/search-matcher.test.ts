import { describe, expect, it } from "vitest";
import { PatternError, searchMatcher } from "../../../src/ephemeral/search-matcher.js";

describe("searchMatcher", () => {
  it("finds every occurrence of a literal", async () => {
    const literal = await searchMatcher({ pattern: "ab" });
    expect(literal.find("ab xab ab", 10)).toEqual([
      { offset: 0, length: 2 },
      { offset: 4, length: 2 },
      { offset: 7, length: 2 },
    ]);
    expect(literal.find("ab ab ab", 2)).toHaveLength(2);
  });

  it("ignores case with offsets of the text itself, and treats regex characters literally", async () => {
    const matcher = await searchMatcher({ pattern: "a.b", ignoreCase: true });
    expect(matcher.find("xA.B aXb a.b", 10)).toEqual([
      { offset: 1, length: 3 },
      { offset: 9, length: 3 },
    ]);
    expect(matcher.test("A.B")).toBe(true);
  });

  it("finds RE2 matches in UTF-16 offsets, steps over empty matches, and refuses lookarounds", async () => {
    const matcher = await searchMatcher({ pattern: "b+", regex: true });
    expect(matcher.find("🚀 abb ab", 10)).toEqual([
      { offset: 4, length: 2 },
      { offset: 8, length: 1 },
    ]);
    expect((await searchMatcher({ pattern: "x*", regex: true })).find("ab", 10)).toHaveLength(3);
    expect((await searchMatcher({ pattern: "🚀+b", regex: true })).find("a 🚀🚀b", 10)).toEqual([
      { offset: 2, length: 5 },
    ]);
    await expect(searchMatcher({ pattern: "(?=x)", regex: true })).rejects.toThrow(PatternError);
    await expect(searchMatcher({ pattern: "" })).rejects.toThrow(/empty/);
  });
});
