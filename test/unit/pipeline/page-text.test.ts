import { describe, expect, it } from "vitest";
import { ResultPage } from "../../../src/pipeline/outcomes.js";
import { renderPage } from "../../../src/pipeline/page-text.js";
import type { TextRendering } from "../../../src/results/items-text.js";
import { BpeTokenCounter } from "../../../src/tokenizer/bpe-token-counter.js";

/** A page of fixed items; `text` is what `itemText` answers (lines, links, or the default). */
class FixedPage<T> extends ResultPage<T> {
  constructor(
    readonly items: readonly T[],
    readonly hasMore: boolean,
    private readonly text: readonly string[] | "links" | undefined = undefined,
  ) {
    super();
  }
  get nextCursor() {
    return this.hasMore ? "NEXT" : null;
  }
  prefix(n: number) {
    return new FixedPage(this.items.slice(0, n), true, this.text);
  }
  cursorAfter() {
    return "NEXT";
  }
  override get itemText() {
    return this.text;
  }
  toJSON() {
    return { items: this.items, nextCursor: this.nextCursor, hasMore: this.hasMore, count: this.count };
  }
}

const counter = new BpeTokenCounter();
const json: TextRendering = { mode: "json", counter, limit: 2000 };
const auto: TextRendering = { mode: "auto", counter, limit: 2000 };
const rows = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, title: `Row ${i + 1}`, open: i % 2 === 0 }));

describe("renderPage", () => {
  it("writes the envelope's minified JSON under json mode", async () => {
    const page = new FixedPage(rows.slice(0, 2), true);
    const { content, envelope } = await renderPage(page, json);
    expect(envelope).toEqual({ items: rows.slice(0, 2), nextCursor: "NEXT", hasMore: true, count: 2 });
    expect(content).toEqual([{ type: "text", text: JSON.stringify(envelope) }]);
  });

  it("writes items as a table then the envelope fields that say something, count left out, under auto", async () => {
    const { content } = await renderPage(new FixedPage(rows, true), auto);
    const text = (content[0] as { text: string }).text;
    expect(text.startsWith("id\ttitle\topen\n1\tRow 1\ttrue\n")).toBe(true);
    expect(text.endsWith("\n\nnextCursor=NEXT hasMore=true")).toBe(true);
    expect(text).not.toContain("count=");
  });

  it("leaves the envelope line out of the last page, whose fields say nothing", async () => {
    const { content } = await renderPage(new FixedPage(rows, false), auto);
    const text = (content[0] as { text: string }).text;
    expect(text).not.toContain("hasMore");
    expect(text.endsWith("12\tRow 12\tfalse")).toBe(true);
  });

  it("writes the page's own lines when it has them", async () => {
    const page = new FixedPage([{ seq: 1 }, { seq: 2 }], true, ["12:00 info started", ""]);
    const { content } = await renderPage(page, auto);
    expect((content[0] as { text: string }).text).toBe(
      '12:00 info started\n""\n\nnextCursor=NEXT hasMore=true',
    );
  });

  it("answers a page of links with the envelope fields, then one resource_link per item", async () => {
    const links = [
      { uri: "articles://a", name: "A" },
      { uri: "articles://b", name: "B" },
    ];
    const { content, envelope } = await renderPage(new FixedPage(links, true, "links"), auto);
    expect(content).toEqual([
      { type: "text", text: "nextCursor=NEXT hasMore=true count=2" },
      { type: "resource_link", uri: "articles://a", name: "A" },
      { type: "resource_link", uri: "articles://b", name: "B" },
    ]);
    expect(envelope.items).toEqual(links);
    const asJson = await renderPage(new FixedPage(links, false, "links"), json);
    expect((asJson.content[0] as { text: string }).text).toBe(
      '{"nextCursor":null,"hasMore":false,"count":2}',
    );
  });

  it("leaves out of the text the fields the page says its items show; structuredContent keeps them", async () => {
    class RangePage extends FixedPage<(typeof rows)[number]> {
      override toJSON() {
        return { ...super.toJSON(), since: 10, first: 1, last: 2, nextSince: 30 };
      }
      override get textLeavesOut() {
        return ["first", "last"];
      }
    }
    const page = new RangePage(rows.slice(0, 2), false);
    const { content, envelope } = await renderPage(page, auto);
    expect((content[0] as { text: string }).text.split("\n\n")[1]).toBe("since=10 nextSince=30");
    expect(envelope).toMatchObject({ first: 1, last: 2 });
    // JSON text is the whole envelope.
    const asJson = await renderPage(new RangePage(rows.slice(0, 2), false), json);
    expect(JSON.parse((asJson.content[0] as { text: string }).text)).toMatchObject({ first: 1, last: 2 });
  });

  it("renders one page once per mode and limit: the budget's rendering is the one sent", async () => {
    const page = new FixedPage(rows, true);
    const first = await renderPage(page, auto);
    expect(await renderPage(page, { ...auto })).toBe(first);
    expect(await renderPage(page, json)).not.toBe(first);
  });
});
