import { describe, expect, it } from "vitest";
import { itemsText, objectText } from "../../../src/results/items-text.js";
import type { JsonValue } from "../../../src/results/json-value.js";
import { writeTable } from "../../../src/results/table-format.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";
import type { TokenCounter } from "../../../src/tokenizer/token-counter.js";

const bpe = new BpeTokenCounter();
const tokensOf = async (text: string) => (await bpe.count(text, Number.MAX_SAFE_INTEGER)).tokens;

/** The BPE counter, recording the characters each call was given. */
function recording(): { counter: TokenCounter; texts: number[] } {
  const texts: number[] = [];
  const count = (text: string, limit: number) => {
    texts.push(text.length);
    return bpe.count(text, limit);
  };
  return { texts, counter: { count } };
}

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    title: `Issue number ${i + 1} about the cache`,
    open: i % 3 > 0,
  }));

describe("itemsText", () => {
  it("writes uniform rows as a table when it counts fewer tokens", async () => {
    const items = rows(20);
    const text = await itemsText(items, { counter: bpe, limit: 2000 });
    expect(text).toBe(writeTable(items)?.text);
    expect(await tokensOf(text)).toBeLessThan(await tokensOf(JSON.stringify(items)));
  });

  it("keeps JSON when it counts no more tokens than the table, by the app's counter", async () => {
    // With o200k, uniform rows cost fewer tokens as a table in every case tried (3,000
    // random small shapes); a counter to which tabs are dear shows the choice follows the count.
    const tabsAreDear: TokenCounter = {
      count: (text) => ({ tokens: text.length + 50 * text.split("\t").length, exact: true }),
    };
    const items = [
      { a: 1, b: 2 },
      { a: 3, b: 4 },
    ];
    expect(await itemsText(items, { counter: tabsAreDear, limit: 2000 })).toBe(
      '[{"a":1,"b":2},{"a":3,"b":4}]',
    );
    // A tie keeps JSON too: a table is chosen only when it costs fewer tokens.
    const tie: TokenCounter = { count: () => ({ tokens: 7, exact: true }) };
    expect(await itemsText(items, { counter: tie, limit: 2000 })).toBe('[{"a":1,"b":2},{"a":3,"b":4}]');
  });

  it("chooses exactly by the count: a table only when strictly fewer tokens, on many shapes", async () => {
    const shapes: JsonValue[][] = [
      [{ a: 1 }],
      [{ a: 1 }, { a: 2 }],
      [{ n: "x" }, { n: "y" }, { n: "z" }],
      [{ nested: { deep: [1, 2, { x: "a,b" }] } }, { nested: { deep: [] } }],
      [{ text: "a\tb" }, { text: 'q"uote' }],
      rows(3),
      rows(40),
      [{ k: null, v: true }],
    ];
    for (const items of shapes) {
      const table = writeTable(items)?.text ?? "";
      const json = JSON.stringify(items);
      const expected = (await tokensOf(table)) < (await tokensOf(json)) ? table : json;
      expect(await itemsText(items, { counter: bpe, limit: 2000 })).toBe(expected);
    }
  });

  it("keeps JSON for items that are not uniform objects, without counting", async () => {
    const { counter, texts } = recording();
    for (const items of [[1, 2, 3], [{ a: 1 }, { b: 2 }], ["x"], []] as JsonValue[][])
      expect(await itemsText(items, { counter, limit: 2000 })).toBe(JSON.stringify(items));
    expect(texts).toEqual([]);
  });

  it("decides at O(limit) cost, whatever the number of rows", async () => {
    const limit = 500;
    for (const n of [2_000, 50_000]) {
      const { counter, texts } = recording();
      const items = rows(n);
      const text = await itemsText(items, { counter, limit });
      expect(text).toBe(writeTable(items)?.text);
      // Each count is handed a text, but the BPE counter reads at most about limit × 8
      // characters of one: what matters is that no JSON of all the rows was written.
      expect(texts.length).toBeLessThanOrEqual(4);
      const json = texts.slice(2);
      for (const chars of json) expect(chars).toBeLessThan(limit * 40);
    }
  });
});

describe("objectText", () => {
  it("writes a flat object as key=value lines when they count fewer tokens than its JSON", async () => {
    const issue = { title: "Crash in log tailing on Windows", state: "open", labels: ["bug", "performance"] };
    const text = await objectText(issue, { counter: bpe, limit: 2000 });
    expect(text).toBe('title=Crash in log tailing on Windows\nstate=open\nlabels=["bug","performance"]');
    expect(await tokensOf(text)).toBe(19);
    expect(await tokensOf(JSON.stringify(issue))).toBe(22);
  });

  it("keeps JSON when it counts no more, when the object is not flat, and when the lines pass the limit", async () => {
    const equalsAreDear: TokenCounter = {
      count: (text) => ({ tokens: text.length + 50 * text.split("=").length, exact: true }),
    };
    expect(await objectText({ a: 1, b: 2 }, { counter: equalsAreDear, limit: 2000 })).toBe('{"a":1,"b":2}');
    const tie: TokenCounter = { count: () => ({ tokens: 7, exact: true }) };
    expect(await objectText({ a: 1 }, { counter: tie, limit: 2000 })).toBe('{"a":1}');
    expect(await objectText({ a: { b: 1 } }, { counter: bpe, limit: 2000 })).toBe('{"a":{"b":1}}');
    const long = { body: "word ".repeat(5000) };
    expect(await objectText(long, { counter: bpe, limit: 100 })).toBe(JSON.stringify(long));
  });

  it("counts no more than the limit, then the JSON only up to the lines' count", async () => {
    const { counter, texts } = recording();
    const long = { body: "word ".repeat(50_000), n: 1 };
    await objectText(long, { counter, limit: 50 });
    // One count of the lines, stopped at the limit; the JSON is not counted at all.
    expect(texts).toHaveLength(1);
  });
});
