import { describe, expect, it } from "vitest";
import { sizeOnly } from "../../../src/pagination/size-only.js";
import type { KeySpec } from "../../../src/pagination/stable-key.js";
import { toolTextOf } from "../../../src/results/tool-text.js";

const byAt: KeySpec = { fields: ["at"], order: "asc" };
const call = {
  value: [] as unknown,
  total: undefined,
  pageRead: false,
  window: undefined,
  aggregateOffered: true,
  json: false,
};

describe("sizeOnly", () => {
  it("answers the handler's total in one short line", () => {
    const answer = sizeOnly({ ...call, total: 7_500, pageRead: true }, byAt);
    expect(answer).toEqual({ total: 7_500 });
    expect(toolTextOf(answer)).toBe("total=7500");
  });

  it("counts a whole array the framework orders itself, within a stream's range", () => {
    const value = [{ at: 1 }, { at: 5 }, { at: 9 }, { at: 12 }];
    expect(sizeOnly({ ...call, value }, byAt)).toEqual({ total: 4 });
    expect(sizeOnly({ ...call, value, window: { since: 1, until: 9 } }, byAt)).toEqual({ total: 2 });
  });

  it("says the total is unknown when the handler paged itself, pointing to what counts", () => {
    const unknown = sizeOnly({ ...call, value: [{ at: 1 }], pageRead: true }, byAt);
    expect(unknown).toEqual({ total: null });
    expect(toolTextOf(unknown)).toMatch(/^total unknown: .*aggregate: \{"count": true\}/);
    const plain = sizeOnly({ ...call, value: [{ at: 1 }], pageRead: true, aggregateOffered: false }, byAt);
    expect(toolTextOf(plain)).toMatch(/page through it to count/);
  });

  it("keeps JSON text under text: json", () => {
    expect(toolTextOf(sizeOnly({ ...call, total: 3, json: true }, byAt))).toBeUndefined();
  });
});
