import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock, SystemClock } from "../../../src/clock/clock.js";

describe("ManualClock", () => {
  it("stands still until advanced or set", () => {
    const clock = new ManualClock(1_000);
    expect(clock.now()).toBe(1_000);
    expect(clock.now()).toBe(1_000);
    clock.advance(60_000);
    expect(clock.now()).toBe(61_000);
    clock.set(5);
    expect(clock.now()).toBe(5);
  });

  it("starts at the epoch when given no time", () => {
    expect(new ManualClock().now()).toBe(0);
  });
});

describe("SystemClock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("reads the system time", () => {
    vi.useFakeTimers({ now: 1_700_000_000_000 });
    expect(new SystemClock().now()).toBe(1_700_000_000_000);
    vi.advanceTimersByTime(250);
    expect(new SystemClock().now()).toBe(1_700_000_000_250);
  });
});
