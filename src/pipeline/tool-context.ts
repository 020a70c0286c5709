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
}

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
