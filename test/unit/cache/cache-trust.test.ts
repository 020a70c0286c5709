import { describe, expect, it } from "vitest";
import { CacheTrust } from "../../../src/cache/cache-trust.js";

describe("CacheTrust", () => {
  it("trusts every namespace until one is doubted, and again once its doubt is cleared", () => {
    const trust = new CacheTrust();
    expect(trust.trusts("A.get")).toBe(true);
    const mark = trust.doubt("A.get");
    expect([trust.trusts("A.get"), trust.isInDoubt("A.get"), trust.trusts("B.get")]).toEqual([
      false,
      true,
      true,
    ]);
    expect(trust.doubted()).toEqual([["A.get", mark]]);
    expect(trust.inDoubt).toBe(1);
    trust.clear("A.get", mark);
    expect([trust.trusts("A.get"), trust.inDoubt]).toEqual([true, 0]);
  });

  it("keeps a doubt raised after the drop that clears an older one", () => {
    const trust = new CacheTrust();
    const first = trust.doubt("A.get");
    const second = trust.doubt("A.get");
    expect(second).toBeGreaterThan(first);
    trust.clear("A.get", first);
    expect(trust.trusts("A.get")).toBe(false);
    trust.clear("A.get", second);
    expect(trust.trusts("A.get")).toBe(true);
  });

  it("holds namespaces while events may be missed, without putting them in doubt", () => {
    const trust = new CacheTrust();
    trust.hold(new Set(["A.get", "B.get"]));
    expect([trust.trusts("A.get"), trust.trusts("C.get"), trust.isInDoubt("A.get")]).toEqual([
      false,
      true,
      false,
    ]);
    trust.release();
    expect(trust.trusts("A.get")).toBe(true);
  });
});
