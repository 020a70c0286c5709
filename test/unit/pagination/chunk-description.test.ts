import { describe, expect, it } from "vitest";
import { chunkDescriber, chunkEnd, chunkTextLeavesOut } from "../../../src/pagination/chunk-description.js";
import type { PageRequest } from "../../../src/pagination/page-request.js";
import type { StreamWindow } from "../../../src/pagination/stream-window.js";
import { specOf } from "./walk-harness.js";

const stream = specOf({ stableKey: ["at"], stream: { window: 1000, graceMs: 250, settleMs: 1 } });
const requestOf = (window: StreamWindow | undefined, more: Partial<PageRequest> = {}): PageRequest => ({
  after: null,
  limit: 10,
  fields: undefined,
  binding: {
    operation: "tail_logs",
    canonicalInput: "{}",
    keySpec: "at:asc",
    keyFields: ["at"],
    principal: null,
  },
  window,
  progress: undefined,
  tail: undefined,
  newest: undefined,
  ...more,
});
const keys = [{ at: 10 }, { at: 20 }];

describe("chunkDescriber", () => {
  it("describes the range and the chunk's part, and where a done window goes on", () => {
    const describe = chunkDescriber(stream, requestOf({ since: 0, until: 100 }), false);
    expect(describe(keys, true)).toEqual({ since: 0, until: 100, first: 10, last: 20 });
    expect(describe(keys, false)).toEqual({ since: 0, until: 100, first: 10, last: 20, nextSince: 100 });
  });

  it("goes on from the last item read when the read gave up at its deadline", () => {
    expect(chunkDescriber(stream, requestOf({ since: 0, until: 100 }), true)(keys, false)).toMatchObject({
      nextSince: 20,
    });
    expect(chunkEnd(specOf({ order: "desc" }), requestOf({ since: 5, until: 100 }), true, 20)).toBe(5);
  });

  it("makes a tail of sequence numbers go on from its last item, there being no until", () => {
    const sequence = specOf({ stableKey: ["seq"], stream: { graceMs: 250, settleMs: 1 } });
    const tail = requestOf({ since: null, until: null }, { newest: 5 });
    expect(chunkDescriber(sequence, tail, false)([{ seq: 7 }, { seq: 9 }], false)).toMatchObject({
      last: 9,
      nextSince: 9,
    });
    expect(chunkDescriber(sequence, tail, false)([], false)).not.toHaveProperty("nextSince");
    // Without `tail: N`, a sequence walk has nothing to poll on from.
    expect(
      chunkDescriber(sequence, requestOf({ since: null, until: null }), false)(keys, false),
    ).not.toHaveProperty("nextSince");
  });
});

describe("chunkTextLeavesOut", () => {
  it("leaves out first and last when the items show the key, and until when nextSince repeats it", () => {
    const request = requestOf({ since: 0, until: 100 });
    const describe = chunkDescriber(stream, request, false);
    expect(chunkTextLeavesOut(describe, stream, request, true)(keys, false)).toEqual([
      "first",
      "last",
      "until",
    ]);
    expect(chunkTextLeavesOut(describe, stream, request, true)(keys, true)).toEqual(["first", "last"]);
    const selected = requestOf({ since: 0, until: 100 }, { fields: ["message"] });
    expect(chunkTextLeavesOut(describe, stream, selected, true)(keys, true)).toEqual([]);
    expect(chunkTextLeavesOut(describe, stream, request, false)(keys, true)).toEqual([]);
  });
});
