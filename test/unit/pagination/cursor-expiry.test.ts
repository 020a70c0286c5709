import { describe, expect, it } from "vitest";
import {
  carriedCount,
  expiresAt,
  expiryAfter,
  nearestExpiries,
} from "../../../src/pagination/cursor-expiry.js";

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 5, 1, 12, 34, 56, 789);

describe("a cursor's expiry", () => {
  it.each([
    [1_000, 0, 1],
    [60_000, 3, 64],
    [10 * 60_000, 5, 1_024],
    [DAY, 8, 65_536],
    [365 * DAY, 13, 4 ** 13],
  ])("lives at most its lifetime (%i ms), and less by under one unit", (ttl, exponent, unit) => {
    const expiry = expiryAfter(NOW, ttl);
    expect(expiry.exponent).toBe(exponent);
    expect(expiresAt(expiry)).toBeLessThanOrEqual(NOW + ttl);
    expect(expiresAt(expiry)).toBeGreaterThan(NOW + ttl - unit);
  });

  it("is read back from its 12 carried bits by a reader whose clock is near", () => {
    for (const ttl of [1_000, 60_000, DAY, 90 * DAY]) {
      const expiry = expiryAfter(NOW, ttl);
      // Read when issued, just before it ends, and by an instance whose clock is a quarter lifetime ahead.
      for (const readAt of [NOW, expiresAt(expiry) - 1, NOW + ttl / 4]) {
        expect(nearestExpiries(expiry.exponent, carriedCount(expiry), readAt)[0]).toEqual(expiry);
      }
    }
  });

  it("offers an expiry that ended a cycle or two ago, so an old cursor reads as expired", () => {
    const expiry = expiryAfter(NOW, DAY);
    const cycle = 4_096 * 65_536;
    for (const late of [1, cycle, 2 * cycle]) {
      const offered = nearestExpiries(expiry.exponent, carriedCount(expiry), expiresAt(expiry) + late);
      expect(offered).toContainEqual(expiry);
    }
  });

  it("works on a clock that starts at the epoch, and for a lifetime of zero", () => {
    const expiry = expiryAfter(0, 60_000);
    expect(nearestExpiries(expiry.exponent, carriedCount(expiry), 0)[0]).toEqual(expiry);
    expect(expiresAt(expiryAfter(NOW, 0))).toBe(NOW + 1);
  });
});
