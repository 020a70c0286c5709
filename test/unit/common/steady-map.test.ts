import { describe, expect, it } from "vitest";
import { SteadyMap } from "../../../src/common/steady-map.js";

describe("SteadyMap", () => {
  it("shows only the entries put in it, in the order they came", () => {
    const map = new SteadyMap<number, string>();
    expect(map.size).toBe(0);
    expect([...map]).toEqual([]);
    map.set(2, "b").set(1, "a");
    expect(map.size).toBe(2);
    expect([...map.keys()]).toEqual([2, 1]);
    expect([...map]).toEqual([
      [2, "b"],
      [1, "a"],
    ]);
    expect(map.get(1)).toBe("a");
    expect(map.has(2)).toBe(true);
  });

  it("empties and fills again as a Map does", () => {
    const map = new SteadyMap<object, string>();
    const key = {};
    for (let round = 0; round < 3; round++) {
      map.set(key, "call");
      expect(map.size).toBe(1);
      expect(map.delete(key)).toBe(true);
      expect(map.delete(key)).toBe(false);
      expect(map.size).toBe(0);
      expect(map.has(key)).toBe(false);
      expect([...map.keys()]).toEqual([]);
    }
  });

  it("has no key of its own that a caller could reach", () => {
    const map = new SteadyMap<unknown, string>();
    expect(map.has(undefined)).toBe(false);
    expect(map.get(undefined)).toBeUndefined();
    expect(map.delete(undefined)).toBe(false);
  });
});
