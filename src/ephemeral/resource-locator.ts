import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { Clock } from "../clock/clock.js";
import { isProtocolError } from "../errors/protocol-errors.js";
import type { ToolContext } from "../pipeline/tool-context.js";
import { toolError } from "../results/tool-error.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { declaredContent, declaredValue } from "./declared-content.js";
import type { StoredContent } from "./entry-reader.js";
import type { EphemeralResources } from "./ephemeral-resources.js";
import { PageReadError, type PageWalkLimits, walkPages } from "./page-walk.js";

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
export interface PartialWalk {
  readonly partial: true;
  /** The URI to read or search next: the page after the last one read. */
  readonly continueUri: string;
  readonly hint: string;
}

/** A resource found for the caller: its metadata, where its content is read, and a walk that stopped early. */
export type Located =
  | { ok: true; meta: StoredResourceMeta; content: StoredContent; walk?: PartialWalk | undefined }
  | { ok: false; error: ReturnType<typeof toolError> };

/**
 * Finds what a URI names for the resource tools: an ephemeral resource of the caller's,
 * else a declared resource read through its own pipeline (so its owner rules,
 * interceptors and cache apply), a paginated one walked across its pages, else an
 * `isError` result saying it is unknown or expired.
 */
export class ResourceLocator {
  constructor(
    private readonly resources: EphemeralResources,
    private readonly readDeclared: DeclaredResourceReader,
    private readonly walkLimits: PageWalkLimits & { clock: Clock },
  ) {}

  async locate(uri: string, ctx: ToolContext): Promise<Located> {
    const refuse = (message: string) => ({ ok: false as const, error: toolError(message) });
    const meta = await this.resources.stat(uri, ctx.owner);
    if (meta) return { ok: true, meta, content: this.resources.storage };
    const started = this.walkLimits.clock.now();
    let read: DeclaredRead | undefined;
    try {
      read = await this.readDeclared(uri, ctx);
    } catch (error) {
      // A resource's own refusal (-32002, -32602, …) is this tool's error, not a protocol error of tools/call.
      if (isProtocolError(error)) return refuse(`Cannot read ${uri}: ${error.message}`);
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
