import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../../src/results/json-value.js";
import {
  envelopeLine,
  readObjectLines,
  readTable,
  withEnvelopeLine,
  writeLines,
  writeObjectLines,
  writeTable,
} from "../../../src/results/table-format.js";

/** Strings that break a naive table: delimiters, quotes, line breaks, look-alikes of other types. */
const TRICKY = [
  "",
  " ",
  "a\tb",
  'say "hi"',
  '"quoted"',
  "line\nbreak",
  "cr\rlf",
  "null",
  "true",
  "false",
  "123",
  "-0",
  "1e5",
  "007",
  "[1,2]",
  '{"a":1}',
  "[WARN] disk full",
  "{not json",
  "nextCursor=abc",
  "trailing ",
  "é ü 中文 🎉",
  "\\",
  "\u2028",
];

const cell: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer()), { maxKeys: 2 }),
);

describe("tables", () => {
  it("writes a header line, then one tab-separated line per item", () => {
    const table = writeTable([
      { id: 1, title: "Hello, world", tags: ["a", "b"], due: null },
      { id: 2, title: "Tab\there", tags: [], due: "2026-01-02" },
    ]);
    expect(table?.text).toBe(
      'id\ttitle\ttags\tdue\n1\tHello, world\t["a","b"]\tnull\n2\t"Tab\\there"\t[]\t2026-01-02',
    );
    expect(table?.lineEnds).toEqual([17, 47, 75]);
  });

  it("reads back every value it writes (seeded property)", () => {
    const rows = fc
      .uniqueArray(fc.oneof(fc.string(), fc.constantFrom(...TRICKY)), { minLength: 1, maxLength: 5 })
      .chain((fields) =>
        fc.array(fc.tuple(...fields.map(() => cell)), { minLength: 1, maxLength: 6 }).map((tuples) =>
          tuples.map((values) => {
            const item: Record<string, JsonValue> = {};
            fields.forEach((field, f) => {
              Object.defineProperty(item, field, { value: values[f], enumerable: true, writable: true });
            });
            return item;
          }),
        ),
      );
    fc.assert(
      fc.property(rows, (items) => {
        const table = writeTable(items);
        expect(table).toBeDefined();
        const text = table?.text ?? "";
        // One line per item after the header, and never an empty line.
        expect(text.split("\n")).toHaveLength(items.length + 1);
        expect(text).not.toContain("\n\n");
        expect(readTable(text)).toEqual({ items, envelope: {} });
      }),
      { seed: 2024, numRuns: 1000 },
    );
  });

  it("quotes a string only when it holds a tab, a quote or a line break, or would read as something else", () => {
    const written = writeTable(TRICKY.map((s) => ({ s })))
      ?.text.split("\n")
      .slice(1);
    expect(written).toEqual([
      '""',
      " ",
      '"a\\tb"',
      '"say \\"hi\\""',
      '"\\"quoted\\""',
      '"line\\nbreak"',
      '"cr\\rlf"',
      '"null"',
      '"true"',
      '"false"',
      '"123"',
      '"-0"',
      '"1e5"',
      "007",
      '"[1,2]"',
      '"{\\"a\\":1}"',
      "[WARN] disk full",
      "{not json",
      "nextCursor=abc",
      "trailing ",
      "é ü 中文 🎉",
      "\\",
      "\u2028",
    ]);
  });

  it("is not written for items that are not uniform objects", () => {
    expect(writeTable([])).toBeUndefined();
    expect(writeTable([1, 2])).toBeUndefined();
    expect(writeTable([{}, {}])).toBeUndefined();
    expect(writeTable([{ a: 1 }, { b: 1 }])).toBeUndefined();
    expect(writeTable([{ a: 1 }, { a: 1, b: 2 }])).toBeUndefined();
    expect(writeTable([{ a: 1, b: 2 }, { a: 1 }])).toBeUndefined();
    expect(writeTable([{ a: 1 }, [1]])).toBeUndefined();
    expect(writeTable([{ a: 1 }, null])).toBeUndefined();
    // The same fields in another order are uniform: the first item's order is used.
    expect(
      writeTable([
        { a: 1, b: 2 },
        { b: 4, a: 3 },
      ])?.text,
    ).toBe("a\tb\n1\t2\n3\t4");
  });
});

describe("envelope lines", () => {
  it("leaves out fields that say nothing, and keeps the rest in order", () => {
    expect(envelopeLine({ nextCursor: null, hasMore: false, total: 0, skipped: [] })).toBe("total=0");
    expect(envelopeLine({ nextCursor: "eyJ4Ijo1fQ", hasMore: true, until: "2026-01-01T00:00:00.000Z" })).toBe(
      "nextCursor=eyJ4Ijo1fQ hasMore=true until=2026-01-01T00:00:00.000Z",
    );
    expect(envelopeLine({ hasMore: false })).toBe("");
  });

  it("follows the items after an empty line, and reads back", () => {
    const fields = {
      nextCursor: "123",
      hasMore: true,
      total: 57,
      skipped: [
        { position: 0, tokens: 900, budget: 300, reason: "this item alone is over the token budget" },
      ],
      note: "two words",
      odd: "[x]",
    };
    const text = withEnvelopeLine("a\n1", envelopeLine(fields));
    expect(text).toBe(
      'a\n1\n\nnextCursor="123" hasMore=true total=57 skipped=[{"position":0,"tokens":900,"budget":300,"reason":"this item alone is over the token budget"}] note="two words" odd="[x]"',
    );
    expect(readTable(text)).toEqual({ items: [{ a: 1 }], envelope: fields });
    expect(readTable(withEnvelopeLine("[1,2]", "hasMore=true"))).toEqual({
      items: [1, 2],
      envelope: { hasMore: true },
    });
    expect(withEnvelopeLine("[]", "")).toBe("[]");
    // A page of links: the line alone.
    expect(readTable("nextCursor=x count=3")).toEqual({
      items: undefined,
      envelope: { nextCursor: "x", count: 3 },
    });
  });
});

describe("lines", () => {
  it("writes one line per item, quoting one that would break the layout", () => {
    expect(writeLines(["12:00 INFO up", "", "two\nlines", '"quoted" start', 'inner "quote"'])).toBe(
      '12:00 INFO up\n""\n"two\\nlines"\n"\\"quoted\\" start"\ninner "quote"',
    );
  });
});

describe("object lines", () => {
  it("writes one key=value line per field, values as cells are", () => {
    expect(
      writeObjectLines({ title: "Crash on start", state: "open", labels: ["bug", "ui"], n: 3, ok: null }),
    ).toBe('title=Crash on start\nstate=open\nlabels=["bug","ui"]\nn=3\nok=null');
    // A value holding a line break, or reading as another type, is a JSON string; `=` in a value is itself.
    expect(writeObjectLines({ a: "x\ny", b: "12", c: "k=v" })).toBe('a="x\\ny"\nb="12"\nc=k=v');
    // A key holding `=`, a quote or a line break, or empty, is a JSON string.
    expect(writeObjectLines({ "a=b": 1, "": 2, 'q"': 3 })).toBe('"a=b"=1\n""=2\n"q\\""=3');
  });

  it("is not written for an object that is not flat, or has no field", () => {
    expect(writeObjectLines({})).toBeUndefined();
    expect(writeObjectLines({ a: 1, nested: { b: 2 } })).toBeUndefined();
    expect(writeObjectLines({ a: [1, [2]] })).toBeUndefined();
    expect(writeObjectLines({ a: [{ b: 1 }] })).toBeUndefined();
  });

  it("reads back every flat object it writes (seeded property)", () => {
    const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
      fc.constantFrom(...TRICKY),
      fc.string(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (n === 0 ? 0 : n)),
      fc.boolean(),
      fc.constant(null),
    );
    const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
    const objects = fc
      .uniqueArray(fc.oneof(fc.string(), fc.constantFrom(...TRICKY)), { minLength: 1, maxLength: 6 })
      .chain((keys) =>
        fc.tuple(...keys.map(() => value)).map((values) => {
          const object: Record<string, JsonValue> = {};
          keys.forEach((key, k) => {
            Object.defineProperty(object, key, { value: values[k], enumerable: true, writable: true });
          });
          return object;
        }),
      );
    fc.assert(
      fc.property(objects, (object) => {
        const text = writeObjectLines(object);
        expect(text).toBeDefined();
        // Keys that look like array indices come first in any object: compare as objects.
        expect(text?.split("\n")).toHaveLength(Object.keys(object).length);
        expect(readObjectLines(text ?? "")).toEqual(object);
      }),
      { seed: 2024, numRuns: 1000 },
    );
  });

  it("refuses a text that is not object lines", () => {
    expect(() => readObjectLines("no equals sign")).toThrow(SyntaxError);
    expect(() => readObjectLines('"unterminated=1')).toThrow(SyntaxError);
  });
});
