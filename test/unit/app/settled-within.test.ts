import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { settledWithin } from "../../../src/app/settled-within.js";

describe("settledWithin", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is true when the promise settles before the deadline, rejected or not, and clears its timer", async () => {
    expect(await settledWithin(Promise.resolve("done"), 1_000)).toBe(true);
    const failing = Promise.reject(new Error("failed"));
    // Settling counts, not succeeding; the rejection itself is the caller's to observe.
    await expect(settledWithin(failing, 1_000)).rejects.toThrow("failed");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("is false once the deadline passes first", async () => {
    const never = new Promise<void>(() => {});
    const settled = settledWithin(never, 5_000);
    await vi.advanceTimersByTimeAsync(4_999);
    let answered: boolean | undefined;
    void settled.then((value) => {
      answered = value;
    });
    await Promise.resolve();
    expect(answered).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled).toBe(false);
  });

  it("answers true when the promise settles later, within the time allowed", async () => {
    let finish: () => void = () => {};
    const call = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const settled = settledWithin(call, 5_000);
    await vi.advanceTimersByTimeAsync(3_000);
    finish();
    expect(await settled).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
