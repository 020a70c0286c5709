import fc from "fast-check";
import { RE2 } from "re2-wasm";
import { describe, expect, it } from "vitest";
import { QueryError } from "../../../src/aggregate/query-errors.js";
import { checkWhere, WHERE_LIMITS } from "../../../src/ephemeral/query-where.js";
import { compileWhere } from "../../../src/ephemeral/where-matcher.js";

const matcher = (where: unknown) => compileWhere(checkWhere(where));

const refusal = (where: unknown): string => {
  try {
    checkWhere(where);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(where)}`);
};

describe("checkWhere", () => {
  it("accepts the contract's operators and rewrites $regex and a top-level $not for the matcher", () => {
    const checked = checkWhere({
      a: 1,
      b: { $ne: 2, $in: [1, 2], $nin: [3] },
      c: { $gt: 1, $gte: 1, $lt: 9, $lte: 9, $exists: true, $eq: 4 },
      d: { $regex: "x", $options: "i", $not: { $regex: "y" } },
      $and: [{ e: 1 }],
      $or: [{ f: 1 }],
      $not: { g: 1 },
    });
    expect(checked.condition).toMatchObject({
      a: { $eq: 1 },
      d: { $frugalRegex: 0, $not: { $frugalRegex: 1 } },
      $nor: [{ g: { $eq: 1 } }],
    });
    expect(checked.patterns).toEqual([
      { part: "where.d.$regex", pattern: "x", ignoreCase: true },
      { part: "where.d.$not.$regex", pattern: "y", ignoreCase: false },
    ]);
    expect(checked.fields.map((f) => f.path).sort()).toEqual(["a", "b", "c", "d", "e", "f", "g"]);
  });

  it("names the part of each refusal", () => {
    expect(refusal({ $where: "1" })).toMatch(/^where\.\$where: unknown operator "\$where"/);
    expect(refusal({ a: { $mod: [2, 0] } })).toMatch(/^where\.a\.\$mod/);
    expect(refusal({ $or: [{ a: 1 }, { b: { $type: "string" } }] })).toMatch(/^where\.\$or\.1\.b\.\$type/);
    expect(refusal([1])).toMatch(/^where: must be an object/);
    expect(refusal({ "": 1 })).toMatch(/non-empty/);
    expect(refusal({ "a.$b": 1 })).toMatch(/is an operator, not a field name/);
    expect(
      refusal({ a: { $in: Array.from({ length: WHERE_LIMITS.maxInValues + 1 }, (_, i) => i) } }),
    ).toMatch(/at most 10000 values/);
    expect(refusal({ a: { $regex: "x".repeat(1001) } })).toMatch(/at most 1000 characters/);
    expect(refusal({ $or: Array.from({ length: 300 }, (_, i) => ({ [`f${i}`]: i })) })).toMatch(
      /at most 256 conditions/,
    );
  });
});

describe("compileWhere (MongoDB semantics on mingo)", () => {
  const items = [
    { id: 1, tags: ["a", "b"], n: { v: 2 }, s: "Timeout here" },
    { id: 2, tags: [], n: [{ v: 3 }, { v: 2 }], s: "no" },
    { id: 3, tags: null, s: "timeout" },
    { id: 4 },
  ];
  const ids = async (where: unknown) => {
    const match = await matcher(where);
    return items.filter((item) => match(item)).map((item) => item.id);
  };

  it("matches through arrays, on nulls and missing fields, as MongoDB does", async () => {
    expect(await ids({ tags: "a" })).toEqual([1]);
    expect(await ids({ "n.v": 2 })).toEqual([1, 2]);
    expect(await ids({ "n.v": { $gt: 2 } })).toEqual([2]);
    expect(await ids({ tags: null })).toEqual([3, 4]);
    expect(await ids({ tags: { $exists: false } })).toEqual([4]);
    expect(await ids({ tags: { $in: [null, "b"] } })).toEqual([1, 3, 4]);
    expect(await ids({ tags: { $nin: ["a"] } })).toEqual([2, 3, 4]);
    expect(await ids({ tags: { $in: [["a", "b"]] } })).toEqual([1]);
    expect(await ids({ id: { $in: ["1"] } })).toEqual([]);
    expect(await ids({ $not: { id: { $lte: 2 } } })).toEqual([3, 4]);
    expect(await ids({ s: { $regex: "^timeout", $options: "i" } })).toEqual([1, 3]);
    expect(await ids({ s: { $not: { $regex: "out" } } })).toEqual([2, 4]);
    expect(await ids({})).toEqual([1, 2, 3, 4]);
    // An item that is not an object has no fields: it never matches a condition on one.
    expect((await matcher({ a: "x" }))("x")).toBe(false);
    expect((await matcher({}))("x")).toBe(true);
  });

  it("answers literal and anchored patterns as RE2 does (string methods stand in for it)", async () => {
    const alphabet = ["a", "b", "A", ".", "\\", "^", "$", "-", "/", " ", "é", "É"];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 8 }).map((chars) => chars.join(""));
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.array(text, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        async (pattern, texts, i) => {
          let expected: RE2;
          try {
            expected = new RE2(pattern, i ? "iu" : "u");
          } catch {
            return; // not a valid pattern: refused, tested above
          }
          if (pattern.length === 0) return;
          const match = await matcher({ s: i ? { $regex: pattern, $options: "i" } : { $regex: pattern } });
          for (const s of texts) expect(match({ s }), `${pattern} on ${s}`).toBe(expected.test(s));
        },
      ),
      { seed: 25, numRuns: 400 },
    );
  });

  it("refuses a pattern RE2 cannot run in linear time, naming it", async () => {
    await expect(matcher({ s: { $regex: "(a)\\1" } })).rejects.toThrow(/where\.s\.\$regex: .*RE2 syntax/);
  });
});
