import type { ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import { itemsText, type TextRendering } from "../results/items-text.js";
import { type JsonObject, type JsonValue, toJsonValue } from "../results/json-value.js";
import { envelopeLine, withEnvelopeLine, writeLines } from "../results/table-format.js";
import type { ResultPage } from "./outcomes.js";

/** A page as a tool answers it: the content blocks the model reads, and the envelope for programs. */
export interface RenderedPage {
  readonly content: ContentBlock[];
  /** The envelope `{ items, nextCursor, hasMore, count, … }` as JSON: the `structuredContent`. */
  readonly envelope: JsonObject;
}

// One rendering per page, mode and limit: the budget renders a page to count it, then the
// shape stage sends the same page, and must neither write nor count it again.
const rendered = new WeakMap<ResultPage, { key: string; page: Promise<RenderedPage> }>();

/**
 * The content of a tool page. Under `mode: "json"`, its text is the envelope's minified JSON
 * (what the MCP specification suggests for structured content). Under `"auto"`, the text
 * holds the items (a table, or their JSON when that counts fewer tokens; or the page's own
 * lines), then, after an empty line, the envelope fields that say something
 * (`nextCursor=… hasMore=true total=57`; `count` is left out, the items show it, and so is what
 * the page says its items show, `textLeavesOut`). A page of
 * links answers one text block with the envelope fields, then one `resource_link` per item.
 * The budget counts exactly this, so what it allowed is what is sent.
 */
export function renderPage(page: ResultPage, rendering: TextRendering): Promise<RenderedPage> {
  const key = `${rendering.mode}:${rendering.limit}`;
  const known = rendered.get(page);
  if (known?.key === key) return known.page;
  const made = render(page, rendering);
  rendered.set(page, { key, page: made });
  return made;
}

async function render(page: ResultPage, rendering: TextRendering): Promise<RenderedPage> {
  const envelope = toJsonValue(page) as JsonObject;
  const itemText = page.itemText;
  if (itemText === "links") {
    // No item is in the text: the count is, and the links follow it.
    const { items: links, ...shown } = envelope;
    const position = withoutFields(shown, page.textLeavesOut);
    const text = rendering.mode === "json" ? JSON.stringify(position) : envelopeLine(position);
    const blocks = (links as JsonObject[]).map(
      (link) => ({ type: "resource_link", ...link }) as ContentBlock,
    );
    return { content: [{ type: "text", text }, ...blocks], envelope };
  }
  const { items, count: _count, ...shown } = envelope;
  const position = withoutFields(shown, page.textLeavesOut);
  let text: string;
  if (rendering.mode === "json") text = JSON.stringify(envelope);
  else if (itemText) text = withEnvelopeLine(writeLines(itemText), envelopeLine(position));
  else {
    // The envelope line follows either form alike: the choice counts the text as it is sent.
    const line = envelopeLine(position);
    text = await itemsText(items as JsonValue[], rendering, line === "" ? "" : `\n\n${line}`);
  }
  return { content: [{ type: "text", text }], envelope };
}

/** The envelope's fields but those named. */
function withoutFields(fields: JsonObject, names: readonly string[]): JsonObject {
  if (names.length === 0) return fields;
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(fields)) if (!names.includes(key)) kept[key] = value;
  return kept;
}
