import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/clock/clock.js";
import {
  adaptiveLimit,
  FIRST_PAGE,
  progressState,
  readProgress,
  type WalkProgress,
} from "../../../src/pagination/adaptive-pages.js";
import { CursorCodec, CursorError } from "../../../src/pagination/cursor-codec.js";
import { createKeyring } from "../../../src/pagination/cursor-keys.js";
import type { KeyValue } from "../../../src/pagination/cursor-values.js";

/** The sizes of a walk whose every page comes back full, for `pages` pages. */
function fullWalk(limit: number, maxLimit: number, pages: number): number[] {
  const sizes: number[] = [];
  let progress: WalkProgress = FIRST_PAGE;
  for (let i = 0; i < pages; i++) {
    const size = adaptiveLimit(progress, limit, maxLimit);
    sizes.push(size);
    progress = { pagesBefore: i + 1, lastCount: size };
  }
  return sizes;
}

describe("adaptiveLimit", () => {
  it("keeps the first two pages at limit, then doubles up to maxLimit", () => {
    expect(fullWalk(20, 100, 7)).toEqual([20, 20, 40, 80, 100, 100, 100]);
    expect(fullWalk(10, 1000, 9)).toEqual([10, 10, 20, 40, 80, 160, 320, 640, 1000]);
    expect(fullWalk(20, 21, 4)).toEqual([20, 20, 21, 21]);
  });

  it("grows from what the page before really returned, not from what it asked for", () => {
    // A page of 80 that the budget cut to 30: the next asks for 60, not 160.
    expect(adaptiveLimit({ pagesBefore: 3, lastCount: 30 }, 20, 200)).toBe(60);
  });

  it("never goes below limit, so a shrunk page or a small first limit never slows a walk", () => {
    expect(adaptiveLimit({ pagesBefore: 5, lastCount: 0 }, 20, 100)).toBe(20);
    expect(adaptiveLimit({ pagesBefore: 5, lastCount: 3 }, 20, 100)).toBe(20);
    expect(adaptiveLimit({ pagesBefore: 1, lastCount: 3 }, 20, 100)).toBe(20);
  });

  it("makes the second page as large as a first page the client sized itself", () => {
    expect(adaptiveLimit({ pagesBefore: 1, lastCount: 50 }, 20, 100)).toBe(50);
    expect(adaptiveLimit({ pagesBefore: 1, lastCount: 500 }, 20, 100)).toBe(100);
  });
});

describe("the page count in a cursor", () => {
  it("leaves out what a cursor without it decodes to, so a first page's cursor does not grow", () => {
    expect(progressState({ pagesBefore: 1, lastCount: 20 }, 20)).toEqual({});
    expect(progressState({ pagesBefore: 2, lastCount: 20 }, 20)).toEqual({ p: 2 });
    expect(progressState({ pagesBefore: 1, lastCount: 7 }, 20)).toEqual({ r: 7 });
    expect(readProgress({}, 20)).toEqual({ pagesBefore: 1, lastCount: 20 });
  });

  it("round-trips through a signed cursor", () => {
    const codec = new CursorCodec({
      keyring: createKeyring("adaptive-unit-secret-0123456789"),
      clock: new ManualClock(0),
      ttlMs: 60_000,
      encrypt: false,
      maxLength: 1024,
    });
    const binding = {
      operation: "items",
      canonicalInput: "{}",
      keySpec: "id:asc",
      keyFields: ["id"],
      principal: null,
    };
    const progress = { pagesBefore: 4, lastCount: 33 };
    const token = codec.encode({ id: 7 }, binding, progressState(progress, 20));
    expect(readProgress(codec.open(token, binding).state, 20)).toEqual(progress);
  });

  it("refuses a page count no server issues", () => {
    const forged: Array<Record<string, KeyValue>> = [
      { p: 0 },
      { p: -1 },
      { p: 1.5 },
      { p: "2" },
      { r: -1 },
      { r: null },
      { p: 2 ** 60 },
    ];
    for (const state of forged) {
      expect(() => readProgress(state, 20)).toThrow(CursorError);
      expect(() => readProgress(state, 20)).toThrow("the cursor's page count is malformed");
    }
  });
});
