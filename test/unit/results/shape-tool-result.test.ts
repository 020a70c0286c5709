import { describe, expect, it } from "vitest";
import { text } from "../../../src/results/content.js";
import type { TextRendering } from "../../../src/results/items-text.js";
import { isPlainObject, shapeToolResult } from "../../../src/results/shape-tool-result.js";
import { withToolText } from "../../../src/results/tool-text.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";

const json: TextRendering = { mode: "json", counter: new BpeTokenCounter(), limit: 10_000 };
const auto: TextRendering = { ...json, mode: "auto" };

describe("shapeToolResult", () => {
  it("answers a string as one text block and undefined as an empty result", async () => {
    expect(await shapeToolResult("done", json)).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(await shapeToolResult(undefined, json)).toEqual({ content: [] });
  });

  it("uses helper blocks, alone or in an array, as the content", async () => {
    const block = text("a");
    expect(await shapeToolResult(block, json)).toEqual({ content: [block] });
    expect((await shapeToolResult([block, text("b")], json)).content).toHaveLength(2);
  });

  it("passes a full CallToolResult through unchanged", async () => {
    const result = { content: [{ type: "text", text: "x" }], isError: true };
    expect(await shapeToolResult(result, json)).toBe(result);
  });

  it("answers a plain object as structuredContent plus its JSON text", async () => {
    expect(await shapeToolResult({ id: 1, at: new Date(0) }, json)).toEqual({
      content: [{ type: "text", text: '{"id":1,"at":"1970-01-01T00:00:00.000Z"}' }],
      structuredContent: { id: 1, at: "1970-01-01T00:00:00.000Z" },
    });
  });

  it("answers an object marked withToolText with that text, never its JSON again", async () => {
    const chunk = withToolText({ offset: 0, data: "aGk=" }, "2 bytes at offset 0");
    const result = await shapeToolResult(chunk, json);
    expect(result.content).toEqual([{ type: "text", text: "2 bytes at offset 0" }]);
    expect(result.structuredContent).toEqual({ offset: 0, data: "aGk=" });
  });

  it("writes an array as JSON in json mode, and as a table in auto mode when that is cheaper", async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ id: i, title: `Article ${i}`, open: i % 2 === 0 }));
    const asJson = await shapeToolResult(rows, json);
    expect(asJson.content).toEqual([{ type: "text", text: JSON.stringify(rows) }]);
    expect(asJson.structuredContent).toBeUndefined();
    const asTable = await shapeToolResult(rows, auto);
    const tableText = (asTable.content[0] as { text: string }).text;
    expect(tableText.startsWith("id\ttitle\topen\n")).toBe(true);
    expect(tableText.length).toBeLessThan(JSON.stringify(rows).length);
  });

  it("writes other values as JSON, or their string form when JSON cannot express them", async () => {
    expect((await shapeToolResult(42, json)).content).toEqual([{ type: "text", text: "42" }]);
    const fn = () => 1;
    expect((await shapeToolResult(fn, json)).content).toEqual([{ type: "text", text: String(fn) }]);
  });
});

describe("isPlainObject", () => {
  it("accepts object literals and class instances, not arrays, dates, bytes or collections", () => {
    class Point {
      x = 1;
    }
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(new Point())).toBe(true);
    for (const value of [[], new Date(), new Uint8Array(1), new Map(), new Set(), null, "x"]) {
      expect(isPlainObject(value)).toBe(false);
    }
  });
});
