import { QueryError } from "../aggregate/query-errors.js";
import type { Clock } from "../clock/clock.js";
import type { ResourceSlice } from "../pipeline/resource-handle.js";
import { DEFAULT_TOKEN_LIMIT, tokenLimit } from "../pipeline/token-limit.js";
import type { ToolContext } from "../pipeline/tool-context.js";
import { toolError } from "../results/tool-error.js";
import { withItemsText, withToolText } from "../results/tool-text.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { StoredContent } from "./entry-reader.js";
import type { EphemeralResources } from "./ephemeral-resources.js";
import { EPHEMERAL_DEFAULTS } from "./ephemeral-settings.js";
import { PAGE_WALK_DEFAULTS } from "./page-walk.js";
import { type QueryDeps, queryResource } from "./query-resource.js";
import type { QueryInput } from "./query-spec.js";
import { type DeclaredResourceReader, type Located, ResourceLocator } from "./resource-locator.js";
import { MAX_BYTE_SLICE, readSlice, shortenSlice } from "./resource-slices.js";
import { fitSearch } from "./search-budget.js";
import { projectMatches, searchFields } from "./search-fields.js";
import { countSearch, PatternError, type SearchFound, searchResource } from "./search-resource.js";
import { type ReadInput, readTextWindow } from "./window-read.js";

export type { DeclaredRead, DeclaredResourceReader } from "./resource-locator.js";

/** Input of `search_resource`, as validated by its schema. */
interface SearchInput {
  uri: string;
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  offset?: number | undefined;
  limit: number;
  count?: boolean | undefined;
  fields?: string[] | undefined;
  context?: number | undefined;
  whole?: boolean | undefined;
}

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
 * The built-in tools that read and search any resource the caller may read (ephemeral
 * ones, static resources and template instances) in slices held to the token budget (the
 * app's, else 2,000 tokens). Registered under configurable names when any ephemeral
 * resource can exist, or when the app asks for them.
 */
export class EphemeralResourceTools {
  private readonly locator: ResourceLocator;
  /** This tool's own name, for the hints it gives. */
  private readonly readTool: string;

  constructor(
    resources: EphemeralResources,
    private readonly counter: TokenCounter,
    private readonly appBudget: number | undefined,
    readDeclared: DeclaredResourceReader,
    /** The app's clock: it times the walk of a paginated resource's pages. */
    clock: Clock,
    /** What `query_resource` and search counts need: cursors, scan bounds, the query tool's name. */
    private readonly queries: QueryDeps,
  ) {
    const { settings } = resources;
    this.readTool = settings.readToolName ?? "read_resource";
    this.locator = new ResourceLocator(resources, readDeclared, {
      maxItems: settings.maxWalkItems ?? PAGE_WALK_DEFAULTS.maxItems,
      maxMs: settings.maxWalkMs ?? PAGE_WALK_DEFAULTS.maxMs,
      maxBytes: settings.maxReadBytes ?? EPHEMERAL_DEFAULTS.maxReadBytes,
      clock,
    });
  }

  private locate(uri: string, ctx: ToolContext): Promise<Located> {
    return this.locator.locate(uri, ctx);
  }

  async readResource(input: ReadInput, ctx: ToolContext) {
    const found = await this.locate(input.uri, ctx);
    if (!found.ok) return found.error;
    const { meta, content, walk } = found;
    const answer =
      input.path !== undefined || input.index !== undefined
        ? await readTextWindow(input, meta, content, this.budgetOf(ctx), this.counter)
        : await this.slice(input, meta, content, ctx);
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
    // One entry alone is over the budget: go on after it, and say how to read it in windows.
    const alone = await this.counter.count(JSON.stringify(shortenSlice(slice, 1)), budget);
    const next = slice.offset + 1;
    const unit = meta.kind === "json-array" ? "item" : "line";
    return {
      ...shortenSlice(slice, 0),
      nextOffset: next < slice.total ? next : null,
      hasMore: next < slice.total,
      skipped: { position: slice.offset, tokens: alone.tokens, budget },
      hint: `${unit} ${slice.offset} alone is over the token budget: read it in windows with ${this.readTool}({ uri, index: ${slice.offset}${meta.kind === "json-array" ? ', path: "/field"' : ""}, offset }), or search it.`,
    };
  }

  async searchResource(input: SearchInput, ctx: ToolContext) {
    const located = await this.locate(input.uri, ctx);
    if (!located.ok) return located.error;
    const answer = await this.search(input, located.meta, located.content, ctx);
    const { walk } = located;
    if ("isError" in answer) return answer;
    if (!walk) return matchesAsItems(answer);
    const hint = "hint" in answer && answer.hint !== undefined ? `${answer.hint} ${walk.hint}` : walk.hint;
    return matchesAsItems({ ...answer, ...walk, hint });
  }

  private async search(
    input: SearchInput,
    meta: StoredResourceMeta,
    content: StoredContent,
    ctx: ToolContext,
  ) {
    let searched: SearchFound;
    try {
      if (input.fields && meta.kind !== "json-array")
        return toolError(
          `Cannot search ${input.uri}: fields selects fields of JSON array items, and it is ${meta.kind}.`,
        );
      const fields = input.fields && searchFields(input.fields);
      if (input.count) return await countSearch(content, meta, input, this.queries.bounds);
      // Fields project whole items: they imply whole.
      searched = await searchResource(content, meta, {
        ...input,
        whole: input.whole || fields !== undefined,
      });
      if (fields) searched = projectMatches(searched, fields);
    } catch (error) {
      if (error instanceof PatternError) return toolError(`Cannot search ${input.uri}: ${error.message}.`);
      if (error instanceof QueryError) return toolError(`Cannot search ${input.uri}: ${error.message}.`);
      throw error;
    }
    return fitSearch(searched, input.offset ?? 0, this.budgetOf(ctx), this.counter);
  }

  async queryResource(input: QueryInput, ctx: ToolContext) {
    const located = await this.locate(input.uri, ctx);
    if (!located.ok) return located.error;
    const { meta, content, walk } = located;
    const answer = await queryResource(input, meta, content, ctx.owner, this.budgetOf(ctx), this.queries);
    if (!walk || "isError" in answer) return answer;
    const hint = "hint" in answer && answer.hint !== undefined ? `${answer.hint} ${walk.hint}` : walk.hint;
    return { ...answer, ...walk, hint };
  }

  private budgetOf(ctx: ToolContext): number {
    return tokenLimit(this.appBudget ?? DEFAULT_TOKEN_LIMIT, ctx.meta) ?? DEFAULT_TOKEN_LIMIT;
  }
}

/** A search answer with matches reads as a page: its matches as items, then its other fields on one line. */
function matchesAsItems<T extends object>(answer: T): T {
  return "matches" in answer ? withItemsText({ ...answer }, "matches" as keyof T & string) : answer;
}

/** The one line a byte slice says in text, worded as byte chunks are. */
function describeByteSlice(slice: ResourceSlice): string {
  const where = `${slice.count} bytes at offset ${slice.offset} of ${slice.total}`;
  return slice.nextOffset === null
    ? `${where}; this is the last chunk`
    : `${where}; next offset ${slice.nextOffset}`;
}
