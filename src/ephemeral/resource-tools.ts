import { z } from "zod";
import type { ResourceSlice } from "../pipeline/resource-handle.js";
import { DEFAULT_TOKEN_LIMIT, tokenLimit } from "../pipeline/token-limit.js";
import type { ToolContext } from "../pipeline/tool-context.js";
import { toolError } from "../results/tool-error.js";
import { fitPrefix } from "../tokenizer/fit-prefix.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import type { EphemeralResources } from "./ephemeral-resources.js";
import { MAX_BYTE_SLICE, readSlice, shortenSlice } from "./resource-slices.js";
import { PatternError, type SearchResult, searchResource } from "./search-resource.js";

/**
 * Entries read ahead for a slice when the client gives no `limit`; the budget then trims
 * it (by binary search, each probe O(budget)). Large enough that the budget, not this,
 * bounds a slice of short lines: 2,000 one-token lines fill a 2,000-token budget.
 */
const DEFAULT_ENTRIES = 4000;
/** Bytes read ahead without a `limit`: far more text than any budget of tokens holds. */
const READ_AHEAD_BYTES = 256 * 1024;

/** Inputs of `read_resource`. */
export const readResourceInput = {
  uri: z.string().describe("The ephemeral:// URI from a resource_link."),
  offset: z.number().int().min(0).optional().describe("First item, line or byte (default 0)."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_BYTE_SLICE)
    .optional()
    .describe("Most items, lines or bytes (default: as many as the token budget allows)."),
};

/** Inputs of `search_resource`. */
export const searchResourceInput = {
  uri: z.string().describe("The ephemeral:// URI from a resource_link."),
  pattern: z.string().min(1).max(1000).describe("Text to find (literal unless regex is true)."),
  regex: z.boolean().default(false).describe("Treat the pattern as an RE2 regular expression."),
  ignoreCase: z.boolean().default(false),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("Item or line to start from (nextOffset of a previous search)."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(500)
    .default(100)
    .describe("Most matches to return (default 100; fewer when the token budget is reached)."),
};

/**
 * The built-in tools that read and search ephemeral resources in slices held to the
 * token budget (the app's, else 2,000 tokens). Registered under configurable names when
 * any ephemeral resource can exist.
 */
export class EphemeralResourceTools {
  constructor(
    private readonly resources: EphemeralResources,
    private readonly counter: TokenCounter,
    private readonly appBudget: number | undefined,
  ) {}

  async readResource(input: { uri: string; offset?: number; limit?: number }, ctx: ToolContext) {
    const meta = await this.resources.stat(input.uri, ctx.owner);
    if (!meta) return notFound(input.uri);
    const wanted = input.limit ?? (meta.kind === "bytes" ? MAX_BYTE_SLICE : DEFAULT_ENTRIES);
    let slice: ResourceSlice;
    try {
      // Without a limit, read ahead what a budget could possibly hold, not 4,000 huge items.
      const readAhead = input.limit === undefined ? READ_AHEAD_BYTES : Number.POSITIVE_INFINITY;
      slice = await readSlice(this.resources.storage, meta, input.offset ?? 0, wanted, readAhead);
    } catch (error) {
      if (error instanceof RangeError) return toolError(error.message);
      throw error;
    }
    const budget = this.budgetOf(ctx);
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
    const meta = await this.resources.stat(input.uri, ctx.owner);
    if (!meta) return notFound(input.uri);
    let found: SearchResult;
    try {
      found = await searchResource(this.resources.storage, meta, input);
    } catch (error) {
      if (error instanceof PatternError) return toolError(`Cannot search ${input.uri}: ${error.message}.`);
      throw error;
    }
    const budget = this.budgetOf(ctx);
    const render = (n: number): SearchResult => {
      const matches = found.matches.slice(0, n);
      if (n >= found.matches.length) return found;
      const next =
        matches.length > 0 ? (matches[matches.length - 1]?.position ?? 0) + 1 : (input.offset ?? 0);
      return { ...found, matches, count: n, nextOffset: next, hasMore: true };
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
      nextOffset: first.position + 1,
      skipped: { position: first.position, budget, reason: "this match alone is over the token budget" },
    };
  }

  private budgetOf(ctx: ToolContext): number {
    return tokenLimit(this.appBudget ?? DEFAULT_TOKEN_LIMIT, ctx.meta) ?? DEFAULT_TOKEN_LIMIT;
  }
}

function notFound(uri: string) {
  return toolError(
    `Resource not found: ${uri}. It may have expired or belong to another session; run the tool that made it again.`,
  );
}
