import { describe, expect, it } from "vitest";
import type { KeySpec } from "../../../src/pagination/stable-key.js";
import { readTail } from "../../../src/pagination/tail-read.js";
import { specOf, walkHarness } from "./walk-harness.js";

const byAt: KeySpec = { fields: ["at"], order: "asc" };
/** One line every 10 ms from 1,000 to 1,990. */
const LINES = Array.from({ length: 100 }, (_, i) => ({ at: 1_000 + i * 10 }));
const bounds = { maxItems: 1_000, maxMs: 10_000 };
const inRange = (since: unknown, until: unknown) =>
  LINES.filter(
    (l) => (since === null || l.at > (since as number)) && (until === null || l.at <= (until as number)),
  );

describe("readTail", () => {
  it("steps back window by window until it has the newest N, oldest first", async () => {
    const spec = specOf({
      stableKey: ["at"],
      maxLimit: 50,
      stream: { window: 100, graceMs: 0, settleMs: 1 },
    });
    const harness = walkHarness((page) => inRange(page.since, page.until), { readsPage: false });
    const read = await readTail(
      harness.invocation,
      harness.next,
      spec,
      byAt,
      { since: 1_900, until: 2_000 },
      25,
      bounds,
      undefined,
    );
    if (!("rows" in read)) throw new Error("no rows");
    expect(read.rows.items).toEqual(LINES.slice(-25));
    expect(read.window).toEqual({ since: 1_700, until: 2_000 });
    expect(harness.calls.map((page) => [page.since, page.until, page.tail])).toEqual([
      [1_900, 2_000, 25],
      [1_800, 1_900, 25],
      [1_700, 1_800, 25],
    ]);
  });

  it("reads one range of a stream of sequence numbers, and refuses one a bound cuts", async () => {
    const spec = specOf({ stableKey: ["at"], maxLimit: 50, stream: { graceMs: 0, settleMs: 1 } });
    const harness = walkHarness(() => LINES, { readsPage: false });
    const read = await readTail(
      harness.invocation,
      harness.next,
      spec,
      byAt,
      { since: null, until: null },
      3,
      bounds,
      undefined,
    );
    expect("rows" in read && read.rows.items).toEqual(LINES.slice(-3));
    const cut = await readTail(
      harness.invocation,
      harness.next,
      spec,
      byAt,
      { since: null, until: null },
      3,
      { maxItems: 10, maxMs: 10_000 },
      undefined,
    );
    expect(cut).toEqual({ tooLarge: "at 10 items (aggregate.maxScanItems) within (…, …]" });
  });

  it("stops after windows in a row that hold nothing", async () => {
    const spec = specOf({
      stableKey: ["at"],
      maxLimit: 50,
      stream: { window: 100, graceMs: 0, settleMs: 1 },
    });
    const harness = walkHarness((page) => inRange(page.since, page.until), { readsPage: false });
    const read = await readTail(
      harness.invocation,
      harness.next,
      spec,
      byAt,
      { since: 10_000, until: 10_100 },
      5,
      bounds,
      undefined,
    );
    expect("rows" in read && read.rows.items).toEqual([]);
    expect(harness.calls).toHaveLength(8);
  });
});
