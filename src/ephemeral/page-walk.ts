import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Clock } from "../clock/clock.js";
import { fieldOf } from "../common/guards.js";
import { firstContent, textValue } from "./declared-content.js";

/** How far the resource tools walk a paginated resource's pages in one call. */
export interface PageWalkLimits {
  /** Items read at most (whole pages: the walk stops after the page that reaches it). */
  readonly maxItems: number;
  /** Milliseconds of walking at most, on the app's clock. */
  readonly maxMs: number;
  /** Bytes of page JSON read at most (what the walk holds in memory). */
  readonly maxBytes: number;
  readonly clock: Clock;
}

/** Defaults of the walk's bounds: those of an aggregate scan (100,000 items, 2 s). */
export const PAGE_WALK_DEFAULTS = Object.freeze({ maxItems: 100_000, maxMs: 2_000 });

/** Pages read at most whatever the other bounds say: pages of no items (all skipped) must end too. */
const MAX_PAGES = 10_000;

/** The items of the pages walked, and where the walk stopped if it did not reach the end. */
export interface WalkedPages {
  readonly items: unknown[];
  readonly pages: number;
  /** Set when pages were left: the URI of the next page, and the bound that stopped the walk. */
  readonly stopped?: { readonly nextUri: string; readonly bound: string };
}

/** A page read failed: the message names the page and says why. */
export class PageReadError extends Error {}

/**
 * Walks a paginated resource from the page `first` answered, following `nextCursor`
 * (`readPage(pageUri(cursor))`) while pages remain and the bounds allow, so the resource
 * tools read and search the whole resource rather than its first page. Bounded like an
 * aggregate scan: by items, time and bytes; the answer then says where to go on.
 * `undefined` when `first` is not a page envelope (`{ items, nextCursor }` as JSON).
 */
export async function walkPages(
  uri: string,
  first: ReadResourceResult,
  pageUri: (cursor: string) => string,
  readPage: (uri: string) => Promise<ReadResourceResult>,
  limits: PageWalkLimits,
  /** When the first page was asked for, on `limits.clock`: its time counts too. */
  started: number,
): Promise<WalkedPages | undefined> {
  let page = envelopeOf(uri, first);
  if (!page) return undefined;
  const items: unknown[] = [];
  let bytes = 0;
  for (let pages = 1; ; pages++) {
    for (const item of page.items) items.push(item);
    bytes += page.bytes;
    const cursor = page.nextCursor;
    if (cursor === null) return { items, pages };
    const bound =
      items.length >= limits.maxItems
        ? `at ${limits.maxItems} items (ephemeral.maxWalkItems)`
        : limits.clock.now() - started >= limits.maxMs
          ? `after ${limits.maxMs} ms (ephemeral.maxWalkMs)`
          : bytes >= limits.maxBytes
            ? `at ${limits.maxBytes} bytes (ephemeral.maxReadBytes)`
            : pages >= MAX_PAGES
              ? `at ${MAX_PAGES} pages`
              : undefined;
    if (bound !== undefined) return { items, pages, stopped: { nextUri: pageUri(cursor), bound } };
    const next = pageUri(cursor);
    let read: ReadResourceResult;
    try {
      read = await readPage(next);
    } catch (error) {
      throw new PageReadError(`Cannot read page ${pages + 1} of ${uri}: ${fieldOf(error, "message")}`, {
        cause: error,
      });
    }
    page = envelopeOf(next, read);
    if (!page) throw new PageReadError(`Cannot read page ${pages + 1} of ${uri}: it is not a page of items`);
  }
}

/** A page envelope's items and next cursor, or undefined when the result is not one. */
function envelopeOf(
  uri: string,
  result: ReadResourceResult,
): { items: unknown[]; nextCursor: string | null; bytes: number } | undefined {
  let content: ReturnType<typeof firstContent>;
  try {
    content = firstContent(uri, result);
  } catch {
    return undefined;
  }
  if (!("text" in content) || typeof content.text !== "string") return undefined;
  const value = textValue(content, content.mimeType ?? "application/json") as Record<string, unknown> | null;
  if (typeof value !== "object" || value === null || !Array.isArray(value.items)) return undefined;
  const { nextCursor } = value;
  if (nextCursor !== null && typeof nextCursor !== "string") return undefined;
  return { items: value.items, nextCursor, bytes: content.text.length };
}
