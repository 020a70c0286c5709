import { describe, expect, it } from "vitest";
import { carriedCount, expiryAfter } from "../../../src/pagination/cursor-expiry.js";
import {
  CURSOR_TEXT,
  FORMAT,
  fromBase64url,
  HEADER_LENGTH,
  Kind,
  OLDER_FORMAT,
  readableBody,
  readBody,
  readHeader,
  writeHeader,
} from "../../../src/pagination/cursor-format.js";

describe("cursor header", () => {
  it("round-trips the format, kind, key hint and expiry in 4 characters starting Q to f", () => {
    const expiry = expiryAfter(1_700_000_000_000, 10 * 60_000);
    for (const kind of [Kind.Packed, Kind.Int, Kind.Bigint, Kind.Text, Kind.Encrypted]) {
      for (const keyHint of [0, 5, 7]) {
        const header = writeHeader(kind, keyHint, expiry);
        expect(header).toHaveLength(HEADER_LENGTH);
        expect(header).toMatch(/^[Q-f]/);
        expect(readHeader(`${header}rest-of-cursor`)).toEqual({
          format: FORMAT,
          kind,
          keyHint,
          exponent: expiry.exponent,
          carried: carriedCount(expiry),
        });
      }
    }
  });

  it("finds no header in text too short or not base64url", () => {
    expect(readHeader("abc")).toBeUndefined();
    expect(readHeader("ab~d1234")).toBeUndefined();
    expect(readHeader("")).toBeUndefined();
  });

  it("tells cursors of the older JSON format apart from this one", () => {
    const older = `AQ${Buffer.from(JSON.stringify({ v: 1, after: [1], exp: 0, pad: "x".repeat(10) })).toString("base64url")}`;
    expect(older).toMatch(OLDER_FORMAT);
    expect(writeHeader(Kind.Int, 0, expiryAfter(0, 1000))).not.toMatch(/^A[Qg]/);
  });
});

describe("fromBase64url", () => {
  it("decodes only base64url written the canonical way", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    expect(fromBase64url(bytes.toString("base64url"))).toEqual(bytes);
    expect(fromBase64url("AAE=")).toBeUndefined(); // padding: never written
    expect(fromBase64url("AAF")).toBeUndefined(); // non-canonical last character (AAE is)
    expect(fromBase64url("a+b/")).toBeUndefined();
    expect(fromBase64url("")).toEqual(Buffer.alloc(0));
  });
});

describe("readable bodies", () => {
  it("writes integers and short bigints in decimal, and reads them back", () => {
    expect(readableBody(42)).toEqual({ kind: Kind.Int, body: "42" });
    expect(readableBody(-7)).toEqual({ kind: Kind.Int, body: "-7" });
    expect(readableBody(12345678901234567890n)).toEqual({ kind: Kind.Bigint, body: "12345678901234567890" });
    expect(readableBody(10n ** 25n)).toBeUndefined(); // packed instead: shorter
    expect(readableBody(1.5)).toBeUndefined();
    expect(readBody(Kind.Int, "-7")).toBe(-7);
    expect(readBody(Kind.Bigint, "12345678901234567890")).toBe(12345678901234567890n);
  });

  it("writes text as it is, escaping other characters as ~hex of their UTF-8, within the cursor alphabet", () => {
    const plain = readableBody("intro-to_paging.v2");
    expect(plain).toEqual({ kind: Kind.Text, body: "intro-to_paging.v2" });
    const accented = readableBody("café-menu-items-for-the-week");
    expect(accented?.body).toBe("caf~c3~a9-menu-items-for-the-week");
    expect(accented?.body).toMatch(CURSOR_TEXT);
    expect(readBody(Kind.Text, accented?.body as string)).toBe("café-menu-items-for-the-week");
    // Mostly escaped text is longer than packed: it is packed instead.
    expect(readableBody("日本語のテキスト")).toBeUndefined();
    // A lone surrogate cannot go through UTF-8: not written as text.
    expect(readableBody("a\uD800b")).toBeUndefined();
  });

  it("refuses bodies this server does not write", () => {
    for (const body of ["007", "-0x1", "1e3", "", "+1", "9007199254740993"])
      expect(() => readBody(Kind.Int, body), body).toThrow(RangeError);
    expect(() => readBody(Kind.Bigint, "01")).toThrow("malformed number");
    for (const body of ["a b", "~zz", "~c3", "~C3~A9", "%41"])
      expect(() => readBody(Kind.Text, body), body).toThrow("malformed text");
  });
});
