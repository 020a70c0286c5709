import { describe, expect, it } from "vitest";
import { fieldPath } from "../../../src/aggregate/query-fields.js";
import { GroupTally, sortGroups } from "../../../src/aggregate/query-groups.js";

const spec = (top?: number, maxGroups = 10) => ({ groupBy: [fieldPath("s", "groupBy")], top, maxGroups });

describe("sortGroups", () => {
  it("orders groups counted elsewhere as GroupTally does: largest first, ties by key", () => {
    const tally = new GroupTally(spec());
    for (const s of ["b", "a", "c", "a", "c"]) tally.add({ s });
    const pushed = [
      { key: { s: "b" }, count: 1 },
      { key: { s: "c" }, count: 2 },
      { key: { s: "a" }, count: 2 },
    ];
    expect(sortGroups(pushed, spec())).toEqual(tally.groups());
  });

  it("keeps the top N, and says partial only when maxGroups cut it", () => {
    const pushed = [1, 2, 3].map((count) => ({ key: { s: String(count) }, count }));
    expect(sortGroups(pushed, spec(2))).toEqual({ groups: [pushed[2], pushed[1]], partial: false });
    expect(sortGroups(pushed, spec(undefined, 1))).toEqual({ groups: [pushed[2]], partial: true });
  });

  it("puts a key's fields in groupBy order, a missing one as null", () => {
    const two = { groupBy: [fieldPath("a", "groupBy.0"), fieldPath("b", "groupBy.1")], maxGroups: 10 };
    const [group] = sortGroups([{ key: { b: 2 }, count: 1 }], two).groups;
    expect(Object.entries(group?.key ?? {})).toEqual([
      ["a", null],
      ["b", 2],
    ]);
  });
});
