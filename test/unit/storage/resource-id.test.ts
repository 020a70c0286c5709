import { describe, expect, it } from "vitest";
import { derivedResourceId, isResourceId, newResourceId } from "../../../src/storage/resource-id.js";

describe("newResourceId", () => {
  it("makes 22 base64url characters that isResourceId accepts, never the same twice", () => {
    const ids = new Set(Array.from({ length: 200 }, () => newResourceId()));
    expect(ids.size).toBe(200);
    for (const id of ids) {
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(isResourceId(id)).toBe(true);
    }
  });
});

describe("derivedResourceId", () => {
  it("gives the same id for the same owner and URI, and another for another owner, scope or URI", () => {
    const id = derivedResourceId("session:a", "report://q1");
    expect(isResourceId(id)).toBe(true);
    expect(derivedResourceId("session:a", "report://q1")).toBe(id);
    expect(derivedResourceId("session:b", "report://q1")).not.toBe(id);
    expect(derivedResourceId(null, "report://q1")).not.toBe(id);
    expect(derivedResourceId("session:a", "report://q2")).not.toBe(id);
  });

  it("never confuses pairs whose concatenation is the same", () => {
    expect(derivedResourceId("ab", "c")).not.toBe(derivedResourceId("a", "bc"));
    expect(derivedResourceId("null", "x")).not.toBe(derivedResourceId(null, "x"));
  });
});

describe("isResourceId", () => {
  it("refuses anything that is not exactly 22 base64url characters", () => {
    for (const bad of [
      undefined,
      null,
      42,
      "",
      "A".repeat(21),
      "A".repeat(23),
      `${"A".repeat(21)}.`,
      `${"A".repeat(21)}/`,
      `../${"A".repeat(19)}`,
      `${"A".repeat(22)}\n`,
    ])
      expect(isResourceId(bad)).toBe(false);
    expect(isResourceId(`${"A".repeat(20)}-_`)).toBe(true);
  });
});
