import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CreateMessageRequestParams,
  CreateMessageResultSchema,
  type ElicitRequestParams,
  ElicitResultSchema,
  ListRootsResultSchema,
  type LoggingLevel,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { EventBus } from "../../events/event-bus.js";
import {
  AGGREGATE,
  type AggregateRequest,
  PAGE,
  PAGE_READ,
  type PageContext,
} from "../../pagination/page-context.js";
import type { CallState } from "../../pipeline/invocation.js";
import type { ResourceHandle } from "../../pipeline/resource-handle.js";
import { SLICED_READ } from "../../pipeline/token-limit.js";
import type { AskOptions, McpLog, SampleOptions, ToolContext } from "../../pipeline/tool-context.js";
import { ANONYMOUS_RESOURCES_REFUSED, serverRequestRefused } from "../registrar-2025/stateless-session.js";
import { levelPasses, type Session } from "../session.js";
import { callIdOf } from "./call-id.js";
import { INPUT_KEY_OPTION, isReplayed } from "./client-questions.js";
import { envelopeOf } from "./request-envelope.js";

/** The SDK's per-request extra, as the low-level server hands it to a handler. */
export type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** The `meta` of a request that sent none: one frozen object, not one per read. */
const NO_META: Readonly<Record<string, unknown>> = Object.freeze({});

/** Makes the `ctx.resources` handle of one call (owned by `owner`, made by `operation`). */
export type ResourceHandleFactory = (owner: string, operation: string) => ResourceHandle;

/**
 * The `ToolContext` of one call. Everything costly (the combined signal, the logger) is
 * built on first use, so a call that ignores its context pays nothing for it. The call
 * state that stages set (the page, a coalesced miss's signal) is held in a truly private
 * field: a handler reads it through `page` and `signal` and cannot change it.
 */
export class CallContext implements ToolContext {
  readonly #state: CallState;
  private combined: AbortController | undefined;
  private unlink: (() => void) | undefined;
  private logger: McpLog | undefined;
  private resourceHandle: ResourceHandle | undefined;
  /** Set on a read made for a tool that slices what it reads itself (see `nested`). */
  private slicedMeta: Readonly<Record<string, unknown>> | undefined;

  constructor(
    state: CallState,
    private readonly session: Session,
    private readonly extra: RequestExtra,
    readonly owner: string,
    readonly events: EventBus,
    /** Name of the tool, resource or prompt, used as the MCP logger name. */
    private readonly operation: string,
    private readonly makeResourceHandle: ResourceHandleFactory,
  ) {
    this.#state = state;
  }

  /**
   * The context of a call made on behalf of `outer` (the resource tools reading a declared
   * resource): same session, request, owner and bus, its own call state. A static method,
   * so it reaches the private state without putting anything on `ToolContext`. Its `meta`
   * marks the read as sliced (`SLICED_READ`): the tool holds each slice to its own budget.
   */
  static nested(outer: ToolContext, state: CallState, operation: string): CallContext {
    if (!(outer instanceof CallContext)) throw new TypeError("not a frugal-mcp call context");
    const nested = new CallContext(
      state,
      outer.session,
      outer.extra,
      outer.owner,
      outer.events,
      operation,
      outer.makeResourceHandle,
    );
    nested.slicedMeta = Object.freeze({ ...outer.meta, [SLICED_READ]: true });
    return nested;
  }

  /** The session and request a context serves (for `callerOfContext`), or none for a context made elsewhere. */
  static servingOf(ctx: ToolContext): { session: Session; extra: RequestExtra } | undefined {
    return ctx instanceof CallContext ? { session: ctx.session, extra: ctx.extra } : undefined;
  }

  get resources(): ResourceHandle {
    // An anonymous stateless call is owned by its request alone: what it stored, nobody could read.
    if (this.session.stateless && !this.owner.startsWith("principal:"))
      throw new Error(ANONYMOUS_RESOURCES_REFUSED);
    this.resourceHandle ??= this.makeResourceHandle(this.owner, this.operation);
    return this.resourceHandle;
  }

  get sessionId(): string {
    return this.extra.sessionId ?? this.session.id();
  }

  get auth() {
    return this.extra.authInfo;
  }

  get callId(): string {
    return callIdOf(this.extra);
  }

  get requestId() {
    return this.extra.requestId;
  }

  get meta(): Readonly<Record<string, unknown>> {
    return this.slicedMeta ?? this.extra._meta ?? NO_META;
  }

  get page(): PageContext | undefined {
    const page = PAGE.find(this.#state);
    if (page) PAGE_READ.set(this.#state, true);
    return page;
  }

  get aggregate(): AggregateRequest | undefined {
    return AGGREGATE.find(this.#state);
  }

  get signal(): AbortSignal {
    if (this.#state.signal) return this.#state.signal;
    this.combined ??= this.link();
    return this.combined.signal;
  }

  /**
   * Forgets the listeners this call put on its request's and its session's signals. The
   * runtime calls it when the call has ended; reading `signal` afterwards still works.
   */
  release(): void {
    this.unlink?.();
    this.unlink = undefined;
  }

  /**
   * One controller aborted by the request's signal or the session's end. Not
   * `AbortSignal.any`: on Node 20 the signal it makes stays reachable from its long-lived
   * source (the session's lifetime) after the session closed, about 35 KiB a session.
   * Plain listeners, removed by `release()`, keep nothing.
   */
  private link(): AbortController {
    const controller = new AbortController();
    const sources = [this.extra.signal, this.session.lifetime.signal];
    const aborted = sources.find((source) => source.aborted);
    if (aborted) {
      controller.abort(aborted.reason);
      return controller;
    }
    const onAbort = (event: Event) => {
      controller.abort(event.target instanceof AbortSignal ? event.target.reason : undefined);
      this.release();
    };
    for (const source of sources) source.addEventListener("abort", onAbort, { once: true });
    this.unlink = () => {
      for (const source of sources) source.removeEventListener("abort", onAbort);
    };
    return controller;
  }

  async progress(done: number, total?: number, message?: string): Promise<void> {
    const progressToken = this.extra._meta?.progressToken;
    if (progressToken === undefined) return;
    await this.extra.sendNotification({
      method: "notifications/progress",
      params: { progressToken, progress: done, total, message },
    });
  }

  get log(): McpLog {
    this.logger ??= this.newLog();
    return this.logger;
  }

  /** One method per level, made on the first `ctx.log` of the call. */
  private newLog(): McpLog {
    const at = (level: LoggingLevel) => (message: string, data?: unknown) =>
      this.sendLog(level, message, data);
    return {
      debug: at("debug"),
      info: at("info"),
      notice: at("notice"),
      warning: at("warning"),
      error: at("error"),
      critical: at("critical"),
      alert: at("alert"),
      emergency: at("emergency"),
    };
  }

  closeSSEStream(): boolean {
    if (!this.extra.closeSSEStream) return false;
    this.extra.closeSSEStream();
    return true;
  }

  sample(request: string | CreateMessageRequestParams, options: SampleOptions = {}) {
    const params: CreateMessageRequestParams =
      typeof request === "string"
        ? {
            messages: [{ role: "user", content: { type: "text", text: request } }],
            maxTokens: options.maxTokens ?? 1000,
            ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
            ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          }
        : request;
    // The call's own sendRequest keeps the request on this call's stream (HTTP) and ties it to cancellation.
    return this.askClient("sampling", "sampling/createMessage", () =>
      this.extra.sendRequest(
        { method: "sampling/createMessage", params },
        CreateMessageResultSchema,
        this.askOptions(options),
      ),
    );
  }

  elicit(params: ElicitRequestParams, options: AskOptions = {}) {
    return this.askClient("elicitation", "elicitation/create", () =>
      this.extra.sendRequest(
        { method: "elicitation/create", params },
        ElicitResultSchema,
        this.askOptions(options),
      ),
    );
  }

  listRoots(options: AskOptions = {}) {
    return this.askClient("roots", "roots/list", () =>
      this.extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema, this.askOptions(options)),
    );
  }

  get clientCapabilities() {
    // A 2026-07-28 request declares its client's capabilities itself, in its envelope.
    const envelope = envelopeOf(this.extra);
    return envelope ? (envelope.capabilities ?? {}) : this.session.clientCapabilities();
  }

  /** The request options of a question: this call's signal, and the key it was named by (2026 replay). */
  private askOptions({ key }: AskOptions): { signal: AbortSignal } {
    const options = { signal: this.signal };
    // An option SDK 1.x does not know (and ignores); the 2026 registrar reads it.
    return key === undefined ? options : Object.assign(options, { [INPUT_KEY_OPTION]: key });
  }

  /**
   * Sends a request to the client, failing the call (as the tool's error, `isError`) when the
   * client did not declare the capability or answers with an error: that error belongs to this
   * nested request, not to the `tools/call` it would otherwise replace with the client's code.
   */
  private async askClient<T>(
    capability: "sampling" | "elicitation" | "roots",
    method: string,
    send: () => Promise<T>,
  ): Promise<T> {
    if (this.session.stateless) {
      const call = { sampling: "ctx.sample", elicitation: "ctx.elicit", roots: "ctx.listRoots" }[capability];
      throw new Error(serverRequestRefused(`${call} (${method})`));
    }
    if (!isReplayed(this.extra) && !this.session.clientCapabilities()?.[capability]) {
      throw new Error(
        `The client does not support ${method} (it did not declare the "${capability}" capability).`,
      );
    }
    try {
      return await send();
    } catch (error) {
      if (error instanceof McpError)
        throw new Error(`${method} failed on the client: ${error.message}`, { cause: error });
      throw error;
    }
  }

  private async sendLog(level: LoggingLevel, message: string, data: unknown): Promise<void> {
    // A 2026-07-28 request names its level in its envelope (none: it is sent no log messages).
    const envelope = envelopeOf(this.extra);
    if (!levelPasses(envelope ? envelope.logLevel : this.session.logLevel, level)) return;
    await this.extra.sendNotification({
      method: "notifications/message",
      params: { level, logger: this.operation, data: data === undefined ? message : { message, data } },
    });
  }
}
