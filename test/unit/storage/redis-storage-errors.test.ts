import { describe, expect, it } from "vitest";
import {
  asBuffer,
  conflict,
  describe as describeError,
  escapeGlob,
  expectOk,
  gone,
  untagged,
} from "../../../src/storage/redis-storage-errors.js";
import { StorageError, VersionConflictError } from "../../../src/storage/storage.js";

describe("redis storage errors", () => {
  it("says what a client may read of a Redis failure: no URL, no stack", () => {
    expect(describeError(new Error("Command timed out"))).toBe("Redis did not answer in time");
    expect(describeError(new Error("OOM command not allowed"))).toBe("Redis is out of memory");
    expect(describeError(new Error("Connection is closed."))).toBe("Redis is not connected");
    expect(describeError(new Error(`first line\nredis://user:secret@host`))).toBe("first line");
    expect(describeError(new StorageError("as it was"))).toBe("as it was");
  });

  it("names a version conflict and a version that is gone, with what to do", () => {
    expect(conflict("abc", 3)).toBeInstanceOf(VersionConflictError);
    expect(conflict("abc", 3).message).toMatch(/changed since version 3 was read.*read it again/);
    expect(gone(2).message).toMatch(/^version 2 of this resource is gone/);
  });

  it("reads a tagged id only when the server could have made it", () => {
    expect(untagged("{AAAAAAAAAAAAAAAAAAAAAA}")).toBe("AAAAAAAAAAAAAAAAAAAAAA");
    expect(untagged("AAAAAAAAAAAAAAAAAAAAAA")).toBeUndefined();
    expect(untagged("{../etc}")).toBeUndefined();
  });

  it("escapes a prefix for SCAN MATCH, views bytes as a Buffer, and throws a transaction's first error", () => {
    expect(escapeGlob("a*b?[c]\\")).toBe("a\\*b\\?\\[c\\]\\\\");
    const bytes = new Uint8Array([1, 2, 3]).subarray(1);
    expect([...asBuffer(bytes)]).toEqual([2, 3]);
    expect(() => expectOk(null)).toThrow("the transaction was aborted");
    expect(() =>
      expectOk([
        [null, 1],
        [new Error("WRONGTYPE"), null],
      ]),
    ).toThrow("WRONGTYPE");
  });
});
