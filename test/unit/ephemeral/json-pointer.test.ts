import { describe, expect, it } from "vitest";
import { PointerError, parsePointer, stringFields, toPointer } from "../../../src/ephemeral/json-pointer.js";

describe("JSON Pointers", () => {
  it("escapes ~ and / in segments, and reads them back", () => {
    expect(toPointer(["comments", 2, "text"])).toBe("/comments/2/text");
    expect(toPointer(["a/b", "c~d"])).toBe("/a~1b/c~0d");
    expect(parsePointer("/a~1b/c~0d")).toEqual(["a/b", "c~d"]);
    expect(parsePointer("")).toEqual([]);
  });

  it("refuses a pointer that does not start with /", () => {
    expect(() => parsePointer("body")).toThrow(PointerError);
    expect(() => parsePointer("body")).toThrow(/such as \/body/);
  });

  it("lists every string of a value in document order", () => {
    const fields = [...stringFields({ a: "x", b: [1, "y", { c: "z" }], d: null })];
    expect(fields).toEqual([
      { path: "/a", value: "x" },
      { path: "/b/1", value: "y" },
      { path: "/b/2/c", value: "z" },
    ]);
    expect([...stringFields("root")]).toEqual([{ path: "", value: "root" }]);
  });
});
