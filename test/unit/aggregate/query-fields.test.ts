import { describe, expect, it } from "vitest";
import {
  compareValues,
  fieldPath,
  project,
  sortValue,
  valuesAt,
} from "../../../src/aggregate/query-fields.js";
import { GroupTally } from "../../../src/aggregate/query-groups.js";
import { TopK } from "../../../src/ephemeral/top-k.js";

const f = (path: string) => fieldPath(path, "test");

describe("valuesAt and project", () => {
  const item = {
    id: 7,
    labels: ["bug", "ui"],
    author: { login: "ada", team: { name: "core" } },
    comments: [{ by: "x", n: 1 }, { by: "y" }, 3],
  };

  it("reads dotted paths through arrays and by index, own properties only", () => {
    expect(valuesAt(item, f("labels"))).toEqual(["bug", "ui"]);
    expect(valuesAt(item, f("author.team.name"))).toEqual(["core"]);
    expect(valuesAt(item, f("comments.by"))).toEqual(["x", "y"]);
    expect(valuesAt(item, f("comments.0.by"))).toEqual(["x"]);
    expect(valuesAt(item, f("labels.1"))).toEqual(["ui"]);
    expect(valuesAt(item, f("missing.deep"))).toEqual([]);
    expect(valuesAt(item, f("constructor"))).toEqual([]);
    expect(valuesAt({ toString: 1 }, f("toString"))).toEqual([1]);
  });

  it("projects nested paths, keeps parents, drops paths inside selected ones", () => {
    expect(project(item, [f("id"), f("author.login"), f("comments.by")])).toEqual({
      id: 7,
      author: { login: "ada" },
      comments: [{ by: "x" }, { by: "y" }],
    });
    expect(project(item, [f("author"), f("author.login")])).toEqual({ author: item.author });
    expect(project("plain", [f("id")])).toBe("plain");
    expect(project(item, [f("nothing")])).toEqual({});
  });

  it("orders mixed types as MongoDB does, and arrays by their least or greatest element", () => {
    const values = [true, "b", 2, null, { a: 1 }, [1], "a", 1];
    expect([...values].sort(compareValues)).toEqual([null, 1, 2, "a", "b", { a: 1 }, [1], true]);
    expect(sortValue({ n: [3, 1, 2] }, f("n"), 1)).toBe(1);
    expect(sortValue({ n: [3, 1, 2] }, f("n"), -1)).toBe(3);
    expect(sortValue({}, f("n"), 1)).toBeNull();
  });
});

describe("TopK", () => {
  it("keeps the k least values of any stream, in order", () => {
    let state = 3;
    const next = () => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state >>> 8;
    };
    const values = Array.from({ length: 5000 }, next);
    const top = new TopK<number>(17, (a, b) => a - b);
    for (const value of values) top.offer(value);
    expect(top.sorted()).toEqual([...values].sort((a, b) => a - b).slice(0, 17));
    expect(top.size).toBe(17);
  });
});

describe("GroupTally", () => {
  it("counts array fields once per distinct element, a missing field as null, within maxGroups", () => {
    const tally = new GroupTally({ groupBy: [f("tags")], sum: f("n"), maxGroups: 10 });
    for (const item of [{ tags: ["a", "b", "a"], n: 1 }, { tags: [], n: 2 }, { n: 4 }, { tags: "a", n: 8 }])
      tally.add(item);
    expect(tally.groups()).toEqual({
      groups: [
        { key: { tags: "a" }, count: 2, sum: 9 },
        { key: { tags: null }, count: 2, sum: 6 },
        { key: { tags: "b" }, count: 1, sum: 1 },
      ],
      partial: false,
    });
  });

  it("keeps the largest groups in bounded memory past maxGroups, and says it is partial", () => {
    const tally = new GroupTally({ groupBy: [f("k")], maxGroups: 3 });
    for (let i = 0; i < 10_000; i++) tally.add({ k: i % 5 === 0 ? "big" : i % 7 === 0 ? "mid" : `u${i}` });
    const { groups, partial } = tally.groups();
    expect(partial).toBe(true);
    expect(groups).toHaveLength(3);
    expect(groups.slice(0, 2).map((g) => g.key.k)).toEqual(["big", "mid"]);
    expect((tally as unknown as { tallies: Map<string, unknown> }).tallies.size).toBeLessThanOrEqual(6);
  });
});
