import { describe, expect, it } from "vitest";
import { JsonScanError, JsonScanner } from "../../../src/ephemeral/json-scanner.js";

/** Every string of `text` with its pointer, the text fed in pieces of `size` characters. */
function strings(text: string, size: number): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  let path = "";
  let parts: string[] = [];
  const scanner = new JsonScanner({
    value(kind, pointer) {
      if (kind !== "string") return undefined;
      path = pointer();
      parts = [];
      return "read";
    },
    piece: (piece) => parts.push(piece),
    end() {
      found.push([path, parts.join("")]);
      return false;
    },
  });
  for (let at = 0; at < text.length; at += size) scanner.feed(text.slice(at, at + size));
  scanner.finish();
  return found;
}

const VALUE = {
  title: 'say "hi"\n\ttab \\ back \u0001 é 🚀',
  list: [1, true, null, "two", { deep: ["x", -1.5e3] }, []],
  "a/b~c": "odd key",
  empty: {},
};

describe("JsonScanner", () => {
  it.each([1, 2, 3, 7, 1000])("finds every string with its pointer, fed %i characters at a time", (size) => {
    for (const text of [JSON.stringify(VALUE), JSON.stringify(VALUE, null, 2)])
      expect(strings(text, size)).toEqual([
        ["/title", VALUE.title],
        ["/list/3", "two"],
        ["/list/4/deep/0", "x"],
        ["/a~1b~0c", "odd key"],
      ]);
  });

  it("reads a root string, and stops when the visitor says so", () => {
    expect(strings('"\\u00e9t\\u00e9"', 3)).toEqual([["", "été"]]);
    const seen: string[] = [];
    const scanner = new JsonScanner({
      value(kind, pointer) {
        seen.push(pointer());
        return kind === "array" ? "stop" : undefined;
      },
      piece: () => undefined,
      end: () => false,
    });
    scanner.feed('{"a":1,"b":[1,2],"c":3}');
    expect(scanner.finished).toBe(true);
    expect(seen).toEqual(["", "/a", "/b"]);
  });

  it("refuses what cannot be JSON, and text that ends inside a value", () => {
    expect(() => strings('{"a" 1}', 100)).toThrow(JsonScanError);
    expect(() => strings("[1,2}", 100)).toThrow(/found "}" where "," or a closing bracket was expected/);
    expect(() => strings('{"a":"open', 100)).toThrow(/ends inside a value/);
    expect(() => strings('"bad \\q escape"', 100)).toThrow(/escape sequence/);
  });
});
