import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type Agent, dataOf, textOf } from "./agent.js";

/** A page of a `@Paginated` tool, as its `structuredContent` holds it. */
export interface Page<T = any> {
  items: T[];
  nextCursor?: string | null;
  hasMore?: boolean;
  total?: number;
  nextSince?: unknown;
}

/** The entries of `record` whose value is not undefined (an agent leaves an unknown input out). */
function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/** A slice of `read_resource`. */
export interface Slice {
  items?: unknown[];
  lines?: string[];
  text?: string;
  nextOffset?: number | null;
  hasMore?: boolean;
  skipped?: unknown;
}

/** Fails the task with what the server said. */
export function ensureOk(tool: string, result: CallToolResult): CallToolResult {
  if (result.isError) throw new Error(`${tool} answered an error: ${textOf(result).slice(0, 300)}`);
  return result;
}

/**
 * The largest page a tool offers, as a model reads it from the catalogue: the `limit`
 * input's `maximum` when it states a real one, else "at most N" in its description.
 */
export function maxPage(agent: Agent, tool: string): number | undefined {
  const limit = agent.input(tool, "limit");
  if (!limit) return undefined;
  const maximum = limit.maximum;
  if (typeof maximum === "number" && maximum <= 100_000) return maximum;
  const stated = /at most (\d[\d,]*)/.exec(String(limit.description ?? ""))?.[1];
  return stated === undefined ? undefined : Number(stated.replaceAll(",", ""));
}

/**
 * Walks a paged tool from its first page (with `first` added to the first call only, e.g.
 * the largest `limit`) following `nextCursor` while `hasMore`, the same inputs on every
 * call as cursors are bound to them. Returns every item and the last page's envelope.
 */
export async function walk<T = any>(
  agent: Agent,
  tool: string,
  args: Record<string, unknown>,
  first: Record<string, unknown> = {},
): Promise<{ items: T[]; last: Page<T> }> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const input = cursor === undefined ? { ...args, ...defined(first) } : { ...args, cursor };
    const page = dataOf<Page<T>>(ensureOk(tool, await agent.call(tool, input)));
    if (!page || !Array.isArray(page.items)) throw new Error(`${tool} did not answer a page`);
    items.push(...page.items);
    if (!page.hasMore || !page.nextCursor) return { items, last: page };
    cursor = page.nextCursor;
    await agent.noteCursor(cursor);
  }
}

/**
 * Reads a stored or declared resource whole with `read_resource`, slice after slice by
 * `nextOffset`. Entries reported skipped (alone over the budget) are counted in `skipped`.
 */
export async function readAll(agent: Agent, uri: string): Promise<{ entries: unknown[]; skipped: number }> {
  const entries: unknown[] = [];
  let skipped = 0;
  let offset = 0;
  for (;;) {
    const args = offset === 0 ? { uri } : { uri, offset };
    const slice = dataOf<Slice>(ensureOk("read_resource", await agent.call("read_resource", args)));
    if (!slice) throw new Error("read_resource did not answer a slice");
    entries.push(...(slice.items ?? slice.lines ?? []));
    if (slice.skipped) skipped++;
    if (!slice.hasMore || slice.nextOffset === null || slice.nextOffset === undefined)
      return { entries, skipped };
    offset = slice.nextOffset;
  }
}

/** The full line around `needle` in a window of text, when the window holds both of its ends. */
export function lineAround(window: string, needle: string): string | undefined {
  const text = window.includes("\n") ? window : window.replaceAll("\\n", "\n");
  const at = text.indexOf(needle);
  if (at < 0) return undefined;
  const start = text.lastIndexOf("\n", at);
  const end = text.indexOf("\n", at);
  if (start < 0 || end < 0) return undefined;
  return text.slice(start + 1, end);
}
