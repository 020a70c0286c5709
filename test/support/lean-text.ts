import { readTable } from "frugal-mcp";
import { expect } from "vitest";

/** A tool result as the tests read it (the client's union of result shapes included). */
type ToolResult = { content?: unknown; structuredContent?: unknown } | Record<string, unknown>;

/** The text of a result's first text block. */
export function textOf(result: ToolResult): string {
  const blocks = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  return blocks.find((block) => block.type === "text")?.text ?? "";
}

/**
 * Checks that the text of a page says what its `structuredContent` holds: read back
 * (`readTable`), its items are the envelope's items, and its envelope line holds exactly the
 * envelope's fields that say something (`count` and empty ones left out). Returns the envelope.
 */
export function expectPageText<E extends { items: unknown[] }>(result: ToolResult): E {
  const envelope = (result as { structuredContent?: unknown }).structuredContent as E &
    Record<string, unknown>;
  const { items, envelope: line } = readTable(textOf(result));
  expect(items).toEqual(envelope.items);
  const { items: _items, count: _count, ...fields } = envelope;
  const said = Object.fromEntries(
    Object.entries(fields).filter(
      ([, value]) => value !== null && value !== false && !(Array.isArray(value) && value.length === 0),
    ),
  );
  expect(line).toEqual(said);
  return envelope;
}
