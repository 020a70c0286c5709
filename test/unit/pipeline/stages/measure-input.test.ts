import { describe, expect, it } from "vitest";
import { exceededInputLimit } from "../../../../src/pipeline/stages/measure-input.js";

const limits = { maxBytes: 100, maxElements: 5, maxDepth: 3 };

describe("exceededInputLimit", () => {
  it("lets flat arguments within every limit through", () => {
    expect(exceededInputLimit({ text: "hello", n: 1, ok: true, none: null }, limits)).toBeUndefined();
    expect(exceededInputLimit({}, limits)).toBeUndefined();
  });

  it("measures strings in UTF-8 bytes, not characters", () => {
    // 30 characters, 90 bytes: within 100 with its key; 40 such characters are 120 bytes.
    expect(exceededInputLimit({ t: "€".repeat(30) }, limits)).toBeUndefined();
    expect(exceededInputLimit({ t: "€".repeat(40) }, limits)).toMatch(/larger than 100 bytes.*`t`/);
    expect(exceededInputLimit({ t: "x".repeat(100) }, limits)).toMatch(/larger than 100 bytes/);
    expect(exceededInputLimit({ t: "x".repeat(99) }, limits)).toBeUndefined();
  });

  it("counts flat values against maxElements", () => {
    expect(exceededInputLimit({ a: 1, b: 2, c: 3, d: 4 }, limits)).toBeUndefined();
    expect(exceededInputLimit({ a: 1, b: 2, c: 3, d: 4, e: 5 }, limits)).toMatch(/more than 5 values/);
  });

  it("refuses a __proto__ key at the top level and inside values", () => {
    expect(exceededInputLimit(JSON.parse('{"__proto__": {"admin": true}}'), limits)).toMatch(
      /`__proto__` is not allowed/,
    );
    expect(exceededInputLimit(JSON.parse('{"__proto__": 1}'), limits)).toMatch(/`__proto__` is not allowed/);
    expect(exceededInputLimit(JSON.parse('{"a": {"__proto__": 1}}'), limits)).toMatch(/inside argument `a`/);
  });

  it("walks nested arguments for depth", () => {
    expect(exceededInputLimit({ a: { b: { c: 1 } } }, limits)).toBeUndefined();
    expect(exceededInputLimit({ a: { b: { c: { d: 1 } } } }, limits)).toMatch(/`a` is nested deeper than 3/);
  });
});
