import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Clock } from "../clock/clock.js";
import { isProtocolError } from "../errors/protocol-errors.js";
import type { ResourceSlice } from "../pipeline/resource-handle.js";
import { DEFAULT_TOKEN_LIMIT, tokenLimit } from "../pipeline/token-limit.js";
import type { ToolContext } from "../pipeline/tool-context.js";
import { toolError } from "../results/tool-error.js";
import { withToolText } from "../results/tool-text.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { declaredContent, declaredValue } from "./declared-content.js";
import type { StoredContent } from "./entry-reader.js";
import type { EphemeralResources } from "./ephemeral-resources.js";
import { EPHEMERAL_DEFAULTS } from "./ephemeral-settings.js";
import { PAGE_WALK_DEFAULTS, PageReadError, type PageWalkLimits, walkPages } from "./page-walk.js";
import { MAX_BYTE_SLICE, readSlice, shortenSlice } from "./resource-slices.js";
import { PatternError, type SearchResult, searchResource } from "./search-resource.js";

/**
 * Entries read ahead for a slice when the client gives no `limit`; the budget then trims
 * it (by binary search, each probe O(budget)). Large enough that the budget, not this,
 * bounds a slice of short lines: 2,000 one-token lines fill a 2,000-token budget.
 */
const DEFAULT_ENTRIES = 4000;
/** Bytes read ahead for a slice at least: far more text than a budget of 2,000 tokens holds. */
const READ_AHEAD_BYTES = 256 * 1024;
/**
 * Bytes read ahead per token of budget (a token is a few bytes of text or JSON): a slice
 * never reads, parses and measures megabytes that its budget could not hold anyway.
 */
const READ_AHEAD_BYTES_PER_TOKEN = 16;

/**
 * Reads a declared resource (static, or a template instance) for the caller through its
 * own pipeline (validation, interceptors, cache, budget), as `resources/read` would;
 * `undefined` when no declared resource matches the URI.
 */
export type DeclaredResourceReader = (uri: string, ctx: ToolContext) => Promise<DeclaredRead | undefined>;

/** What a declared resource answered; for a paginated one, how to name its page after a cursor. */
export interface DeclaredRead {
  readonly result: ReadResourceResult;
  /** Under `@Paginated`: the URI of the page after `cursor` (the same URI, with that `cursor`). */
  readonly pageUri?: ((cursor: string) => string) | undefined;
}

/** Where a walk of a paginated resource's pages stopped, told in the answer. */
interface PartialWalk {
  readonly partial: true;
  /** The URI to read or search next: the page after the last one read. */
  readonly continueUri: string;
  readonly hint: string;
}

/**
 * The built-in tools that read and search any resource the caller may read (ephemeral
 * ones, static resources and template instances) in slices held to the token budget (the
 * app's, else 2,000 tokens). Registered under configurable names when any ephemeral
 * resource can exist, or when the app asks for them.
 */
export class EphemeralResourceTools {
  private readonly walkLimits: PageWalkLimits;

  constructor(
    private readonly resources: EphemeralResources,
    private readonly counter: TokenCounter,
    private readonly appBudget: number | undefined,
    private readonly readDeclared: DeclaredResourceReader,
    /** The app's clock: it times the walk of a paginated resource's pages. */
    clock: Clock,
  ) {
    const { settings } = resources;
    this.walkLimits = {
      maxItems: settings.maxWalkItems ?? PAGE_WALK_DEFAULTS.maxItems,
      maxMs: settings.maxWalkMs ?? PAGE_WALK_DEFAULTS.maxMs,
      maxBytes: settings.maxReadBytes ?? EPHEMERAL_DEFAULTS.maxReadBytes,
      clock,
    };
  }

  async readResource(input: { uri: string; offset?: number; limit?: number }, ctx: ToolContext) {
    const found = await this.locate(input.uri, ctx);
    if (!found.ok) return found.error;
    const { meta, content, walk } = found;
    const answer = await this.slice(input, meta, content, ctx);
    return walk && !("isError" in answer) ? { ...answer, ...walk } : answer;
  }

  private async slice(
    input: { offset?: number; limit?: number },
    meta: StoredResourceMeta,
    content: StoredContent,
    ctx: ToolContext,
  ) {
    const wanted = input.limit ?? (meta.kind === "bytes" ? MAX_BYTE_SLICE : DEFAULT_ENTRIES);
    let slice: ResourceSlice;
    const budget = this.budgetOf(ctx);
    try {
      // Read ahead what the budget could possibly hold, never 4,000 huge items or a
      // 500,000-line `limit` of a huge resource (the budget would cut it after all that work).
      const readAhead =
        meta.kind !== "bytes"
          ? Math.max(READ_AHEAD_BYTES, budget * READ_AHEAD_BYTES_PER_TOKEN)
          : MAX_BYTE_SLICE;
      slice = await readSlice(content, meta, input.offset ?? 0, wanted, readAhead);
    } catch (error) {
      if (error instanceof RangeError) return toolError(error.message);
      throw error;
    }
    // A byte chunk: its bytes travel once (base64 in structuredContent) and the model reads
    // one line, so up to 512 KiB fit any budget, as byte-chunk tools answer.
    if (meta.kind === "bytes") return withToolText(slice, describeByteSlice(slice));
    const fitted = await fitPrefix(
      slice.count,
      (n) => JSON.stringify(shortenSlice(slice, n)),
      budget,
      this.counter,
    );
    if (fitted.n > 0 || slice.count === 0) return shortenSlice(slice, fitted.n);
    // One entry alone is over the budget: skip it, say so, and say where to go on.
    const alone = await this.counter.count(JSON.stringify(shortenSlice(slice, 1)), budget);
    const next = slice.offset + 1;
    return {
      ...shortenSlice(slice, 0),
      nextOffset: next < slice.total ? next : null,
      hasMore: next < slice.total,
      skipped: { position: slice.offset, tokens: alone.tokens, budget },
    };
  }

  async searchResource(
    input: {
      uri: string;
      pattern: string;
      regex: boolean;
      ignoreCase: boolean;
      offset?: number;
      limit: number;
    },
    ctx: ToolContext,
  ) {
    const located = await this.locate(input.uri, ctx);
    if (!located.ok) return located.error;
    const answer = await this.search(input, located.meta, located.content, ctx);
    const { walk } = located;
    if (!walk || "isError" in answer) return answer;
    const hint = "hint" in answer && answer.hint !== undefined ? `${answer.hint} ${walk.hint}` : walk.hint;
    return { ...answer, ...walk, hint };
  }

  private async search(
    input: {
      uri: string;
      pattern: string;
      regex: boolean;
      ignoreCase: boolean;
      offset?: number;
      limit: number;
    },
    meta: StoredResourceMeta,
    content: StoredContent,
    ctx: ToolContext,
  ) {
    let found: SearchResult;
    try {
      found = await searchResource(content, meta, input);
    } catch (error) {
      if (error instanceof PatternError) return toolError(`Cannot search ${input.uri}: ${error.message}.`);
      throw error;
    }
    const budget = this.budgetOf(ctx);
    const from = input.offset ?? 0;
    const render = (n: number): SearchResult => {
      if (n >= found.matches.length) return found;
      // Cut by the budget: go on right after the last match shown (the rest are found again).
      const matches = found.matches.slice(0, n);
      const next = matches.length > 0 ? (matches[matches.length - 1]?.position ?? 0) + 1 : from;
      const { hint: _scanHint, ...rest } = found;
      return { ...rest, matches, count: n, scanned: next - from, nextOffset: next, hasMore: true };
    };
    const fitted = await fitPrefix(
      found.matches.length,
      (n) => JSON.stringify(render(n)),
      budget,
      this.counter,
    );
    const first = found.matches[0];
    if (fitted.n > 0 || !first) return render(fitted.n);
    // The first match alone is over the budget: skip it and continue after it.
    return {
      ...render(0),
      scanned: first.position + 1 - from,
      nextOffset: first.position + 1,
      skipped: { position: first.position, budget, reason: "this match alone is over the token budget" },
    };
  }

  /**
   * Where a URI's content is: an ephemeral resource of the caller's, else a declared
   * resource read through its own pipeline (so its owner rules, interceptors and cache
   * apply), else an `isError` result saying it is unknown.
   */
  private async locate(
    uri: string,
    ctx: ToolContext,
  ): Promise<
    | { ok: true; meta: StoredResourceMeta; content: StoredContent; walk?: PartialWalk | undefined }
    | { ok: false; error: ReturnType<typeof toolError> }
  > {
    const refuse = (message: string) => ({ ok: false as const, error: toolError(message) });
    const meta = await this.resources.stat(uri, ctx.owner);
    if (meta) return { ok: true, meta, content: this.resources.storage };
    const started = this.walkLimits.clock.now();
    let read: DeclaredRead | undefined;
    try {
      read = await this.readDeclared(uri, ctx);
    } catch (error) {
      // A resource's own refusal (-32002, -32602, …) is this tool's error, not a protocol error of tools/call.
      if (isProtocolError(error)) return refuse(`Cannot read ${uri}: ${(error as Error).message}`);
      throw error;
    }
    if (!read) {
      const expiredAt = await this.resources.expiredAt(uri, ctx.owner);
      return { ok: false, error: expiredAt === undefined ? notFound(uri) : expired(uri, expiredAt) };
    }
    try {
      const walked = read.pageUri && (await this.walk(uri, read.result, read.pageUri, ctx, started));
      if (!walked) return { ok: true, ...declaredContent(uri, read.result) };
      return {
        ok: true,
        ...declaredValue(uri, walked.items, "application/json"),
        walk: walked.stopped && partialWalk(walked.pages, walked.items.length, walked.stopped),
      };
    } catch (error) {
      if (error instanceof RangeError || error instanceof PageReadError) return refuse(error.message);
      throw error;
    }
  }

  /**
   * Reads the pages of a paginated declared resource after the first, through the same
   * reader (so each page passes its own pipeline), within the walk's bounds.
   */
  private walk(
    uri: string,
    first: ReadResourceResult,
    pageUri: (cursor: string) => string,
    ctx: ToolContext,
    started: number,
  ) {
    const readPage = async (next: string) => {
      const page = await this.readDeclared(next, ctx);
      if (!page) throw new Error("no declared resource serves it any more");
      return page.result;
    };
    return walkPages(uri, first, pageUri, readPage, this.walkLimits, started);
  }

  private budgetOf(ctx: ToolContext): number {
    return tokenLimit(this.appBudget ?? DEFAULT_TOKEN_LIMIT, ctx.meta) ?? DEFAULT_TOKEN_LIMIT;
  }
}

/** The one line a byte slice says in text, worded as byte chunks are. */
function describeByteSlice(slice: ResourceSlice): string {
  const where = `${slice.count} bytes at offset ${slice.offset} of ${slice.total}`;
  return slice.nextOffset === null
    ? `${where}; this is the last chunk`
    : `${where}; next offset ${slice.nextOffset}`;
}

/** What an answer read from a walk that stopped early says: that it is partial, and how to go on. */
function partialWalk(pages: number, items: number, stopped: { nextUri: string; bound: string }): PartialWalk {
  return {
    partial: true,
    continueUri: stopped.nextUri,
    hint: `Only the first ${pages} pages (${items} items) of this paginated resource were read: the walk stops ${stopped.bound}. Offsets count from the first page read; for the items after these, call again with uri ${JSON.stringify(stopped.nextUri)}.`,
  };
}

function expired(uri: string, at: number) {
  return toolError(
    `Expired resource: ${uri} expired at ${new Date(at).toISOString()}. Run the tool that made it again to get a fresh one.`,
  );
}

function notFound(uri: string) {
  return toolError(
    `Unknown resource: ${uri}. No resource you may read has this URI (an ephemeral one may have expired); list them with resources/list, or run the tool that made it again.`,
  );
}
