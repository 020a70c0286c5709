import { describe, expect, it } from "vitest";
import { MAX_URI_LENGTH, uriTooLong } from "../../../src/uri/uri-limits.js";

describe("uriTooLong", () => {
  it("accepts a URI up to the limit", () => {
    expect(uriTooLong("articles://blog/a")).toBeUndefined();
    expect(uriTooLong("x".repeat(MAX_URI_LENGTH))).toBeUndefined();
  });

  it("says how long a longer URI is and what the limit is", () => {
    expect(uriTooLong("x".repeat(MAX_URI_LENGTH + 1))).toBe(
      `the URI is ${MAX_URI_LENGTH + 1} characters long; a resource URI may be at most ${MAX_URI_LENGTH}`,
    );
  });
});
