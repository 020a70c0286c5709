import { describe, expect, it } from "vitest";
import { newResourceId } from "../../../src/storage/resource-id.js";
import { StorageError } from "../../../src/storage/storage.js";
import { checkedId, checkedVersion, checkRange } from "../../../src/storage/storage-checks.js";

describe("checkedId", () => {
  it("returns a server id unchanged and refuses client text with a StorageError that says what ids are", () => {
    const id = newResourceId();
    expect(checkedId(id)).toBe(id);
    for (const bad of ["../etc/passwd", "", 7, `${id}x`]) {
      expect(() => checkedId(bad)).toThrow(StorageError);
      expect(() => checkedId(bad)).toThrow(/22 base64url characters/);
    }
  });
});

describe("checkedVersion", () => {
  it("accepts whole versions from 1 and refuses the rest, naming the value", () => {
    expect(checkedVersion(1)).toBe(1);
    expect(checkedVersion(9_007_199_254_740_991)).toBe(9_007_199_254_740_991);
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, "2", 2 ** 53])
      expect(() => checkedVersion(bad)).toThrow(new StorageError(`not a resource version: ${String(bad)}`));
  });
});

describe("checkRange", () => {
  it("accepts whole non-negative starts (an end before the start is an empty read) and refuses the rest", () => {
    expect(() => checkRange(0, 0)).not.toThrow();
    expect(() => checkRange(10, 5)).not.toThrow();
    expect(() => checkRange(-1, 5)).toThrow(new StorageError("not a byte range: [-1, 5)"));
    expect(() => checkRange(0.5, 5)).toThrow(StorageError);
    expect(() => checkRange(0, Number.NaN)).toThrow(StorageError);
    expect(() => checkRange(0, Number.POSITIVE_INFINITY)).toThrow(StorageError);
  });
});
