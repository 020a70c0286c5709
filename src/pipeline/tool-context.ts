import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";
import type { ResourceHandle } from "./resource-handle.js";

/** Sends MCP logging notifications to the calling client, honouring its `logging/setLevel`. */
export type McpLog = {
  [level in LoggingLevel]: (message: string, data?: unknown) => Promise<void>;
};

/**
 * What a handler receives besides its input. One per call.
 *
 * @example
 * ```ts
 * @Tool({ input: { n: z.number().int() } })
 * async count({ n }: { n: number }, ctx: ToolContext) {
 *   for (let i = 1; i <= n; i++) {
 *     ctx.signal.throwIfAborted();
 *     await ctx.progress(i, n);
 *   }
 *   await ctx.log.info(`counted to ${n}`);
 *   return { n };
 * }
 * ```
 */
export interface ToolContext {
  /** The transport's session id: `Mcp-Session-Id` over HTTP, a fresh id per `connect()` otherwise. */
  readonly sessionId: string;
  /** Who owns what this call creates or caches: the principal when authenticated, else the session. */
  readonly owner: string;
  /** Auth info supplied by the transport, when there is any. */
  readonly auth?: AuthInfo | undefined;
  /**
   * Aborted when the client cancels the call, the session ends, or `app.close()` cuts the
   * call at its drain deadline. A handler must stop (and stop writing) when it aborts:
   * pass it to `fetch` and database drivers, or check it between steps. The app cannot
   * stop a handler that ignores it; `app.close()` names such handlers in a warning.
   */
  readonly signal: AbortSignal;
  /**
   * This call's id: a random UUID, unique across every session and instance, and the same on
   * every input-required round of one 2026-07-28 request. Name what a call stores after it
   * (`results://search/${ctx.callId}`), not after `requestId`.
   */
  readonly callId: string;
  /**
   * The JSON-RPC id of this request: unique within its session only (two clients of one
   * principal send the same ids). Use `callId` to name what a call stores.
   */
  readonly requestId: string | number;
  /** The request's `_meta`, as sent by the client. */
  readonly meta: Readonly<Record<string, unknown>>;
  /** Sends `notifications/progress` when the client asked for progress; otherwise does nothing. */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** MCP logging to the client (`ctx.log.info("…")`). */
  readonly log: McpLog;
  /**
   * Streamable HTTP only: closes this call's SSE stream now, so the client reconnects
   * (polling, SEP-1699) and receives the rest through the session's event store. Returns
   * false when the transport has no such stream.
   */
  closeSSEStream(): boolean;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`). Rejects with a plain
   * error (an `isError` result if uncaught) when the client lacks the `sampling` capability or
   * answers with an error.
   */
  sample(request: string | CreateMessageRequestParams, options?: SampleOptions): Promise<CreateMessageResult>;
  /**
   * Asks the user for input through the client (`elicitation/create`); rejects like `sample`.
   * `options.key` names the question in a 2026-07-28 input-required result (ignored on 2025).
   */
  elicit(params: ElicitRequestParams, options?: AskOptions): Promise<ElicitResult>;
  /** Asks the client for its roots (`roots/list`); rejects like `sample` without the `roots` capability. */
  listRoots(options?: AskOptions): Promise<ListRootsResult>;
  /**
   * The capabilities the client declared: at the handshake on a 2025 session, in the
   * request's own envelope on a 2026-07-28 request. Ask only what the client supports.
   */
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The app's event bus: `ctx.events.emit("articles.changed", { site })`. */
  readonly events: {
    /** Publishes an event; resolves once this instance's listeners (cache invalidations) have handled it. */
    emit(name: string, payload?: unknown): Promise<void>;
  };
  /** Ephemeral resources by hand: `create`, `update`, `delete`, `read`, owned by this caller. */
  readonly resources: ResourceHandle;
  /** Under `@Paginated`: where this page starts and how long it is. */
  readonly page?: PageContext | undefined;
  /**
   * Under `@Paginated`: the `aggregate` input as the client sent it (validated), or
   * undefined. A handler that can answer it itself (`SELECT … GROUP BY`) returns
   * `{ groups, total }` (an {@link AggregateAnswer}); else it returns its page as usual and
   * the framework walks the pages to count.
   */
  readonly aggregate?: AggregateRequest | undefined;
}

/**
 * The `aggregate` input of a paged tool, as `ctx.aggregate` holds it: `groupBy` stays a
 * string or an array, as sent. Fields are dotted paths; an array field counts once per element.
 *
 * @example
 * ```ts
 * ctx.aggregate; // { groupBy: "labels", sum: "comments", top: 10 }
 * ```
 */
export interface AggregateRequest {
  readonly count?: boolean | undefined;
  readonly groupBy?: string | readonly string[] | undefined;
  readonly sum?: string | undefined;
  readonly min?: string | undefined;
  readonly max?: string | undefined;
  readonly avg?: string | undefined;
  /** Keep the N groups with the highest count. */
  readonly top?: number | undefined;
}

/**
 * What a handler that pushes `ctx.aggregate` down returns: the groups (key: an object of
 * the `groupBy` fields, `{}` without `groupBy`) and the number of items counted.
 *
 * @example
 * ```ts
 * if (ctx.aggregate?.groupBy === "site")
 *   return { groups: [{ key: { site: "tech" }, count: 100 }], total: 100 } satisfies AggregateAnswer;
 * ```
 */
export interface AggregateAnswer {
  groups: AggregateGroup[];
  total: number;
}

/** One group of an aggregate answer. */
export interface AggregateGroup {
  key: Record<string, unknown>;
  count: number;
  sum?: number | undefined;
  min?: unknown;
  max?: unknown;
  avg?: number | null | undefined;
}

/**
 * The page a `@Paginated` handler is asked for. Push `after` and `limit + 1` down into
 * the query when you can; the framework then trusts the order of what you return.
 *
 * @example
 * ```ts
 * const rows = db.prepare(
 *   "SELECT * FROM articles WHERE site = ? AND (? IS NULL OR (updated_at, slug) > (?, ?)) ORDER BY updated_at, slug LIMIT ?",
 * ).all(site, ctx.page.after?.updatedAt ?? null, ctx.page.after?.updatedAt, ctx.page.after?.slug, ctx.page.limit + 1);
 * ```
 */
export interface PageContext {
  /** The stable-key values of the last item already returned, or null on the first page. */
  readonly after: Readonly<Record<string, StableKeyValue>> | null;
  /**
   * This page's size: the `limit` requested, clamped to `maxLimit`; under `adaptive`, the
   * grown size when the client left `limit` out. Fetch `limit + 1` rows.
   */
  readonly limit: number;
  /** The cursor as the client sent it, or null. */
  readonly cursor: string | null;
  /** Fields the client selected (projection), when the tool offers `fields`. */
  readonly fields: readonly string[] | undefined;
  /** Stream chunks: exclusive lower bound of the first key field, or null. */
  readonly since?: number | Date | null | undefined;
  /** Stream chunks: inclusive upper bound of the first key field, or null. */
  readonly until?: number | Date | null | undefined;
  /**
   * Streams: the `tail` the client asked for (the newest N items). The framework reads the
   * range's pages (window by window back in time) and keeps the newest N; a handler only
   * needs it to read less.
   */
  readonly tail?: number | undefined;
}

/**
 * A value of a stable-key field, as `ctx.page.after` holds it: cursors keep its type
 * (dates stay dates, bigints stay bigints).
 */
export type StableKeyValue = string | number | boolean | bigint | Date | null;

/**
 * Options of a question to the client (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`).
 *
 * @example
 * ```ts
 * const answer = await ctx.elicit({ message: "Your name?", requestedSchema }, { key: "user_name" });
 * ```
 */
export interface AskOptions {
  /**
   * The key of this question in a 2026-07-28 input-required result (`inputRequests`), under
   * which the client answers; default `frugal.<n>` (the n-th question of the call). Unique
   * within one call. Ignored on 2025 sessions, where the question is a request of its own.
   */
  key?: string | undefined;
}

/** Options of `ctx.sample`: the shorthand's settings, and the question's key. */
export interface SampleOptions extends AskOptions {
  maxTokens?: number | undefined;
  systemPrompt?: string | undefined;
  temperature?: number | undefined;
}
