import { describe, expect, it } from "vitest";
import { RereadTracker } from "../../../src/metrics/reread-tracker.js";

describe("RereadTracker", () => {
  it("counts a second read of a URI by the same owner only", () => {
    const rereads = new RereadTracker();
    expect(rereads.read("session:a", "config://app")).toBe(false);
    expect(rereads.read("session:b", "config://app")).toBe(false);
    expect(rereads.read("session:a", "config://other")).toBe(false);
    expect(rereads.read("session:a", "config://app")).toBe(true);
    expect(rereads.read("session:b", "config://app")).toBe(true);
  });

  it("tells apart pairs whose concatenations are equal", () => {
    const rereads = new RereadTracker();
    rereads.read("ab", "c://x");
    expect(rereads.read("a", "bc://x")).toBe(false);
  });

  it("forgets the least recently read pair past its capacity, so memory stays bounded", () => {
    const rereads = new RereadTracker(3);
    for (const uri of ["r://1", "r://2", "r://3"]) rereads.read("o", uri);
    expect(rereads.read("o", "r://1")).toBe(true); // r://1 is now the most recent
    rereads.read("o", "r://4"); // evicts r://2, the least recent
    expect(rereads.read("o", "r://2")).toBe(false);
    expect(rereads.read("o", "r://1")).toBe(true);
  });

  it("holds no more than its capacity after many distinct reads", () => {
    const rereads = new RereadTracker(100);
    for (let i = 0; i < 10_000; i++) rereads.read("o", `r://${i}`);
    const seen = (rereads as unknown as { seen: Map<number, true> }).seen;
    expect(seen.size).toBe(100);
  });
});
