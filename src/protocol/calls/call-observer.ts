import {
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  propagation,
  type Span,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { Registry } from "../../builder/registry.js";
import { CACHE_HIT, CACHE_MISS } from "../../cache/cache.stage.js";
import { fieldOf } from "../../common/guards.js";
import { SPILLED } from "../../ephemeral/spill.stage.js";
import type { AppMetrics } from "../../metrics/app-metrics.js";
import { resultBytes } from "../../metrics/result-bytes.js";
import { INTERNAL_ERROR, jsonRpcErrorCode } from "../../observability/error-type.js";
import { FRUGAL_ATTRIBUTES, MCP_ATTRIBUTES, TOOL_ERROR } from "../../observability/mcp-attributes.js";
import { META_GETTER } from "../../observability/meta-carrier.js";
import { CONTINUATION } from "../../pagination/page-request.js";
import type { CallOutcome } from "../../pipeline/call-outcome.js";
import type { OperationDefinition } from "../../pipeline/operation.js";
import { isErrorResult } from "../../pipeline/outcomes.js";
import type { Session } from "../session.js";
import type { RequestExtra } from "./call-context.js";
import { type CallProbe, operationProbe, storedReadProbe } from "./call-probe.js";

/** One call, as the observer sees it. */
export interface ObservedCall {
  readonly session: Session;
  readonly extra: RequestExtra;
  readonly owner: string;
  /** The URI read, for `resources/read`. */
  readonly uri: string | undefined;
  readonly args: Record<string, unknown> | undefined;
  /** What the pipeline's stages learned (cache hit, tokens…); none for stored reads. */
  readonly outcome: CallOutcome | undefined;
}

/** What a cached result cost when it was computed, so a cache hit reports the same. */
interface Measured {
  readonly bytes: number;
  readonly tokens: number | undefined;
}

/**
 * Watches every call of an app: the per-operation statistics of `app.stats().operations`,
 * the OpenTelemetry server span (named and attributed as the MCP conventions say, its
 * parent taken from the request's `params._meta`), `mcp.server.operation.duration` and the
 * counters. Statistics are always on, so the common path is a few counter increments: the
 * span's attributes are set only when the span records, and a call is run inside the
 * span's context only when there is a trace to continue.
 */
export class CallObserver {
  private readonly probes = new Map<OperationDefinition, CallProbe>();
  private readonly storedProbes = new Map<string, CallProbe>();
  /** Bytes and tokens of results the cache keeps: it hands back the same object on a hit. */
  private readonly measured = new WeakMap<object, Measured>();

  constructor(
    private readonly registry: Registry,
    private readonly metrics: AppMetrics,
    /** Told of a failure to record a call (a throwing span processor): the call itself is unaffected. */
    private readonly onFault: (error: unknown) => void,
  ) {}

  /** The probe of a declared operation, made on its first call. */
  probe(definition: OperationDefinition): CallProbe {
    let probe = this.probes.get(definition);
    if (!probe) {
      probe = operationProbe(definition, this.registry, this.metrics);
      this.probes.set(definition, probe);
    }
    return probe;
  }

  /** The probe of a read of a stored (ephemeral) resource. */
  storedProbe(uri: string): CallProbe {
    return storedReadProbe(uri, this.registry, this.metrics, this.storedProbes);
  }

  /**
   * Runs `execute` as one observed call and returns its own promise. The call is recorded
   * in reactions attached before the caller (and the SDK, which sends the answer) attach
   * theirs, so the statistics include a call by the time its answer leaves; `settled` (the
   * caller's own clean-up) runs in the same reactions. No async wrapper and one pair of
   * reactions: every call pays for this, and each costs a promise.
   */
  observe(
    probe: CallProbe,
    call: ObservedCall,
    execute: () => Promise<unknown>,
    settled: () => void = noop,
  ): Promise<unknown> {
    const started = performance.now();
    const { counters } = probe;
    const { telemetry } = this.metrics;
    if (typeof call.args?.cursor === "string") {
      counters.continuations++;
      telemetry.continuations.add(1, probe.metricAttributes);
    }
    if (call.uri !== undefined && this.metrics.rereads.read(call.owner, call.uri)) {
      counters.rereads++;
      telemetry.rereads.add(1, probe.metricAttributes);
    }
    const ambient = context.active();
    const meta = call.extra._meta;
    const parent = meta === undefined ? ambient : propagation.extract(ambient, meta, META_GETTER);
    const span = telemetry.tracer.startSpan(probe.spanName, probe.spanOptions, parent);
    const traced = span.isRecording() ? describeSpan(span, call, ambient, parent) : continuesTrace(span);
    let pending: Promise<unknown>;
    try {
      pending = traced ? context.with(trace.setSpan(parent, span), execute) : execute();
    } catch (error) {
      pending = Promise.reject(error); // a pipeline throws synchronously only by a bug; answer it all the same
    }
    // Recording must never reach the call: a fault (a throwing span processor) is reported.
    pending.then(
      (result) => {
        try {
          this.countTailPoll(probe, call.outcome);
          this.succeeded(probe, call, result, span, performance.now() - started);
          span.end();
        } catch (fault) {
          this.onFault(fault);
        }
        settled();
      },
      (error) => {
        try {
          this.countTailPoll(probe, call.outcome);
          this.failed(probe, error, span, performance.now() - started);
          span.end();
        } catch (fault) {
          this.onFault(fault);
        }
        settled();
      },
    );
    return pending;
  }

  /**
   * A call that went on with a walk without a cursor (a stream polled with
   * `since = nextSince`) is a continuation too. Only the pipeline knows, once it decoded
   * the page: counted when the call ends, where a call with a cursor is counted as it starts.
   */
  private countTailPoll(probe: CallProbe, outcome: CallOutcome | undefined): void {
    if (CONTINUATION.get(outcome) !== true) return;
    probe.counters.continuations++;
    this.metrics.telemetry.continuations.add(1, probe.metricAttributes);
  }

  private succeeded(probe: CallProbe, call: ObservedCall, result: unknown, span: Span, ms: number): void {
    const { outcome } = call;
    const { counters } = probe;
    const { telemetry } = this.metrics;
    const hit = CACHE_HIT.get(outcome) === true;
    const remembered = hit ? this.remembered(result) : undefined;
    const bytes = remembered ? remembered.bytes : resultBytes(result);
    const tokens = remembered ? remembered.tokens : outcome?.tokens;
    if (probe.cached && !remembered) this.remember(result, bytes, tokens);
    const failed = isErrorResult(result);
    counters.complete(ms, failed);
    const attributes = failed ? probe.errorAttributes(TOOL_ERROR, false) : probe.metricAttributes;
    telemetry.duration.record(ms / 1000, attributes);
    if (bytes > 0) {
      counters.bytesOut += bytes;
      telemetry.bytesOut.add(bytes, probe.metricAttributes);
    }
    if (tokens !== undefined) {
      counters.tokensOut += tokens;
      telemetry.tokensOut.add(tokens, probe.metricAttributes);
    }
    this.metrics.principals.record(call.owner, tokens);
    if (hit) {
      counters.cacheHits++;
      telemetry.cacheHits.add(1, probe.metricAttributes);
    } else if (CACHE_MISS.get(outcome) === true) {
      counters.cacheMisses++;
      telemetry.cacheMisses.add(1, probe.metricAttributes);
    }
    if (!span.isRecording()) return;
    if (probe.cached) span.setAttribute(FRUGAL_ATTRIBUTES.cacheHit, hit);
    if (probe.spills) span.setAttribute(FRUGAL_ATTRIBUTES.spilled, SPILLED.get(outcome) === true);
    if (outcome?.pageCount !== undefined) span.setAttribute(FRUGAL_ATTRIBUTES.pageCount, outcome.pageCount);
    if (tokens !== undefined) span.setAttribute(FRUGAL_ATTRIBUTES.tokens, tokens);
    if (failed) {
      span.setAttribute(MCP_ATTRIBUTES.errorType, TOOL_ERROR);
      span.setStatus({ code: SpanStatusCode.ERROR, message: errorText(result) });
    }
  }

  private failed(probe: CallProbe, error: unknown, span: Span, ms: number): void {
    const code = jsonRpcErrorCode(error);
    probe.counters.complete(ms, true);
    this.metrics.telemetry.duration.record(ms / 1000, probe.errorAttributes(String(code), true));
    if (!span.isRecording()) return;
    span.setAttribute(MCP_ATTRIBUTES.errorType, String(code));
    span.setAttribute(MCP_ATTRIBUTES.statusCode, String(code));
    const message = error instanceof Error ? error.message : String(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
    // A bug, not a refusal: its stack is worth keeping in the trace.
    if (code === INTERNAL_ERROR && error instanceof Error) span.recordException(error);
  }

  /**
   * A cached operation remembers the bytes and tokens of each result it computed: the
   * cache hands back the same object on a hit, which is served before the budget stage
   * counts anything, so a hit reports what its miss counted.
   */
  private remember(result: unknown, bytes: number, tokens: number | undefined): void {
    if (typeof result === "object" && result !== null) this.measured.set(result, { bytes, tokens });
  }

  private remembered(result: unknown): Measured | undefined {
    return typeof result === "object" && result !== null ? this.measured.get(result) : undefined;
  }
}

/**
 * Whether a span that does not record still continues a trace (a sampled-out parent):
 * then the call runs in its context, so the decision reaches the spans of user code. The
 * no-op tracer's span carries the shared invalid context, so the validity regexes are
 * skipped on the common path.
 */
function continuesTrace(span: Span): boolean {
  const spanContext = span.spanContext();
  return spanContext !== INVALID_SPAN_CONTEXT && isSpanContextValid(spanContext);
}

/** Sets the per-call attributes of a recording span; the call then runs in its context. */
function describeSpan(span: Span, call: ObservedCall, ambient: Context, parent: Context): true {
  span.setAttribute(MCP_ATTRIBUTES.requestId, String(call.extra.requestId));
  span.setAttribute(MCP_ATTRIBUTES.sessionId, call.session.id());
  if (call.uri !== undefined) span.setAttribute(MCP_ATTRIBUTES.resourceUri, call.uri);
  // The conventions: the `_meta` context is the parent; an ambient one (an HTTP span) is linked.
  const ambientSpan = trace.getSpanContext(ambient);
  if (parent !== ambient && ambientSpan && isSpanContextValid(ambientSpan))
    span.addLink({ context: ambientSpan });
  return true;
}

function noop(): void {}

/** The status description of an `isError` result: its first text, cut short. */
function errorText(result: unknown): string {
  const first = fieldOf(fieldOf(fieldOf(result, "content"), 0), "text");
  return typeof first === "string" ? first.slice(0, 200) : "tool error";
}
