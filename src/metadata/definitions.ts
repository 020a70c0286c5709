import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";

/** A zod object schema or a plain shape (`{ site: z.string() }`) describing an input. */
export type InputSchema = z.ZodObject | Record<string, z.ZodType>;

/**
 * How a tool's text block reads. `"auto"` (the default): an array of uniform objects, and
 * the items of a page, are written as a table (a header line, then one tab-separated line
 * per item) whenever that counts fewer tokens than their minified JSON, and a page's
 * envelope fields follow on their own line, empty ones left out; `structuredContent` keeps
 * the full JSON. `"json"`: the text is the minified JSON of the result (of the whole
 * envelope for a page), as the MCP specification suggests for structured content. An
 * app-only tool (`visibility: ["app"]`), whose text no model reads, is `"json"` unless its
 * own decorators say otherwise. `"compact"`: as `"auto"`, and a flat object (each value a
 * scalar or an array of scalars) reads as one `key=value` line per field whenever that counts
 * fewer tokens than its JSON (`readObjectLines` reads it back); under `"auto"` an object
 * result's text stays its JSON.
 */
export type TextFormat = "auto" | "json" | "compact";

/**
 * Who is asking for a list or a call, as `visibleTo` sees it: the auth info the transport
 * gave (`undefined` without authentication), the owner the call runs as (`principal:<id>`,
 * `session:<id>`, …) and the 2025 session's id (`undefined` on a sessionless request).
 *
 * @example
 * ```ts
 * const mineOnly: VisibleTo = (caller: OperationCaller) => caller.owner === "principal:alice";
 * ```
 */
export interface OperationCaller {
  readonly auth: AuthInfo | undefined;
  readonly owner: string;
  readonly sessionId: string | undefined;
}

/**
 * Decides whether a tool, resource or prompt exists for a caller: when it answers false
 * (or throws), the operation is left out of that caller's lists and refused on call, read
 * or get exactly as an unknown name is.
 *
 * @example
 * ```ts
 * @Tool({ visibleTo: ({ auth }) => auth?.scopes.includes("admin") ?? false })
 * purgeCache() { … }
 * ```
 */
export type VisibleTo = (caller: OperationCaller) => boolean | Promise<boolean>;

/** Who may see a tool: the model, an MCP App's UI, or both (default). */
export type ToolVisibility = ReadonlyArray<"model" | "app">;

/**
 * Options of `@Tool`. `I` is the type of `input`, which `@Tool` infers to check the
 * decorated method's first parameter against the schema.
 */
export interface ToolOptions<I extends InputSchema = InputSchema> {
  /** Tool name; defaults to the method name in snake_case (`listArticles` → `list_articles`). */
  name?: string;
  title?: string;
  description?: string;
  /** Arguments: a zod shape or a zod object. Invalid arguments never reach the handler. */
  input?: I;
  /** Structured result schema; advertised as `outputSchema` and checked on every result. */
  output?: InputSchema;
  /**
   * A JSON Schema advertised as the tool's `inputSchema` instead of the one derived from
   * `input` (e.g. to keep `$schema`, `$defs` or `$ref`); arguments are still validated by `input`.
   */
  inputJsonSchema?: Record<string, unknown> & { type: "object" };
  annotations?: ToolAnnotations;
  /** `["app"]` marks an app-only tool (`_meta.ui.visibility`), hidden from the model. */
  visibility?: ToolVisibility;
  /** Extra `_meta` advertised in `tools/list`. */
  meta?: Record<string, unknown>;
  /**
   * `"json"` keeps the result's minified JSON as its text (see {@link TextFormat}); the
   * default, `"auto"`, writes uniform items as a table when that costs fewer tokens;
   * `"compact"` also writes a flat object as `key=value` lines when they cost fewer.
   * Overrides the app's `text`.
   */
  text?: TextFormat;
  /**
   * Hides it from callers it answers false for (see {@link VisibleTo}): not listed, and
   * refused as an unknown name.
   */
  visibleTo?: VisibleTo;
}

/** Completion callback for one template variable or prompt argument. */
export type CompleteCallback = (
  this: any,
  value: string,
  context: { arguments: Record<string, string> },
) => string[] | Promise<string[]>;

/** A concrete resource, as listed for a template by its `list` callback. */
export interface ListedResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** Options of `@Resource`. `I` is the type of `input` (see {@link ToolOptions}). */
export interface ResourceOptions<I extends InputSchema = InputSchema> {
  name?: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Optional schema for template variables (e.g. `z.coerce.number()` for a `limit`). */
  input?: I;
  /** Lists the concrete resources of a template in `resources/list`. */
  list?: (this: any) => ListedResource[] | Promise<ListedResource[]>;
  /** Completions for template variables, by variable name. */
  complete?: Record<string, CompleteCallback>;
  meta?: Record<string, unknown>;
  /**
   * Hides it from callers it answers false for (see {@link VisibleTo}): not listed, and
   * refused as an unknown name.
   */
  visibleTo?: VisibleTo;
}

/** Options of `@Prompt`. `I` is the type of `input` (see {@link ToolOptions}). */
export interface PromptOptions<I extends InputSchema = InputSchema> {
  name?: string;
  title?: string;
  description?: string;
  /** Arguments: a zod shape or object whose fields are strings (the protocol passes strings). */
  input?: I;
  /** Completions for arguments, by argument name. */
  complete?: Record<string, CompleteCallback>;
  /**
   * Hides it from callers it answers false for (see {@link VisibleTo}): not listed, and
   * refused as an unknown name.
   */
  visibleTo?: VisibleTo;
}

/** Options of `@McpService`. */
export interface McpServiceOptions {
  /** Prefix added to every tool name of this service (`"github_"`). */
  toolPrefix?: string;
}

/** Bounds of one aggregate scan over a paged tool's items (`@Paginated`'s `aggregate` option). */
export interface AggregateBounds {
  /** Items read at most. */
  maxScanItems?: number | undefined;
  /** Milliseconds of scanning at most. */
  maxScanMs?: number | undefined;
  /** Groups kept at most, the largest. */
  maxGroups?: number | undefined;
}

/** The `resource_link` of one item of a page answered `as: "links"`. */
export interface PageLink {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** Options of `@Paginated(key, { stream })`. */
export interface StreamChunkOptions {
  /**
   * Time-bounded chunks: a walk covers at most this many milliseconds of the first key
   * field (a `Date` or epoch milliseconds). Without `since`/`until`, the latest window.
   */
  window?: number;
  /** Size-bounded chunks: at most this many bytes of JSON items per chunk (always at least one item). */
  maxBytes?: number;
  /**
   * With `window`: how long (real milliseconds, a whole number, 0 or more; default 250) a
   * read of an async iterable may wait past the window's end. A live source that goes
   * quiet is then closed and the chunk answers with what was read.
   */
  graceMs?: number;
  /**
   * With `window`: how far (milliseconds, a whole number, 0 or more; default 1) a window
   * stays behind the clock. A window ends at most at now minus this, so an item stamped
   * in the millisecond a read starts (or, with a larger value, one stamped before it but
   * not yet readable, as a commit lag) is in the next poll rather than lost between two.
   */
  settleMs?: number;
}

/** How the decorated member was declared; only plain methods can become handlers. */
export type MemberKind = "method" | "getter" | "setter" | "field";

/**
 * Everything the decorators recorded on one method. Each decorator owns one slot, so
 * stacking order never matters. Capabilities record theirs in `capabilities`.
 */
export interface MethodMetadata {
  memberKind: MemberKind;
  tool?: ToolOptions;
  resource?: { uri: string; options: ResourceOptions };
  prompt?: PromptOptions;
  /** `@UseInterceptors` on the method: interceptor classes, in the order given. */
  interceptors?: readonly unknown[];
  /**
   * Capabilities switched on by their decorators (`defineCapability`), each with the options
   * its decorator recorded, in the order they were applied. The capability object is opaque
   * here: the builder knows it.
   */
  capabilities?: ReadonlyArray<RecordedCapability>;
}

/** One capability decorator's record on a method: which capability, with which options. */
export interface RecordedCapability {
  readonly capability: { readonly name: string; readonly decorator: string };
  readonly options: unknown;
}

/** Class-level metadata recorded by `@McpService` and class decorators. */
export interface ServiceMetadata {
  service?: McpServiceOptions;
  /** `@UseInterceptors` on the class: run around every operation of the service. */
  interceptors?: readonly unknown[];
  /**
   * Capabilities recorded on the class (`Capability.classes`), the default of each of its
   * operations whose method records none; a subclass's record of one replaces its parent's.
   */
  capabilities?: ReadonlyArray<RecordedCapability>;
}
