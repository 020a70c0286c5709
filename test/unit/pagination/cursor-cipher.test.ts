import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { shiftText } from "../../../src/pagination/cursor-cipher.js";
import { CURSOR_TEXT } from "../../../src/pagination/cursor-format.js";

const key = randomBytes(32);
const iv = randomBytes(16);
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~";

describe("shiftText", () => {
  it("round-trips any cursor text, keeping its length and alphabet", () => {
    for (const text of ["3intro-to-paging", ALPHABET, "~~~~", "a", ""]) {
      const hidden = shiftText(text, key, iv, 1);
      expect(hidden).toHaveLength(text.length);
      if (text !== "") expect(hidden).toMatch(CURSOR_TEXT);
      expect(shiftText(hidden, key, iv, -1)).toBe(text);
    }
  });

  it("hides the text: another key or nonce gives another ciphertext and no way back", () => {
    const text = "1234567890123456789012345";
    const hidden = shiftText(text, key, iv, 1);
    expect(hidden).not.toBe(text);
    expect(shiftText(text, randomBytes(32), iv, 1)).not.toBe(hidden);
    expect(shiftText(text, key, randomBytes(16), 1)).not.toBe(hidden);
    expect(shiftText(hidden, randomBytes(32), iv, -1)).not.toBe(text);
  });

  it("spreads a character over the whole alphabet as the nonce changes", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) seen.add(shiftText("A", key, randomBytes(16), 1));
    // 400 uniform draws over 66 characters leave about 0.15 of them unseen on average: fewer
    // than 61 seen means the shifts are not uniform (or not applied).
    expect(seen.size).toBeGreaterThan(60);
  });

  it("refuses a character outside the cursor alphabet", () => {
    expect(() => shiftText("abc def", key, iv, 1)).toThrow(new RangeError('" " is not a cursor character'));
    expect(() => shiftText("é", key, iv, -1)).toThrow(RangeError);
  });
});
