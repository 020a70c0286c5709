import { describe, expect, it } from "vitest";
import { ANONYMOUS_OWNER_PREFIX, isAnonymousOwner, UNLISTED_OWNER } from "../../../src/pipeline/owners.js";

describe("isAnonymousOwner", () => {
  it("is true for the owner of an anonymous sessionless call only", () => {
    expect(isAnonymousOwner(`${ANONYMOUS_OWNER_PREFIX}3f2c`)).toBe(true);
    expect(isAnonymousOwner("session:9b1e")).toBe(false);
    expect(isAnonymousOwner("user:alice")).toBe(false);
    // The owner anonymous callers' resources are stored under is not itself an anonymous caller.
    expect(isAnonymousOwner(UNLISTED_OWNER)).toBe(false);
  });

  it("matches the prefix only at the start", () => {
    expect(isAnonymousOwner("user:anonymous:x")).toBe(false);
  });
});
