import { type Counter, type Histogram, type Meter, metrics, type Tracer, trace } from "@opentelemetry/api";

/** The instrumentation scope name of every span and metric frugal-mcp records. */
const INSTRUMENTATION_NAME = "frugal-mcp";

/** The bucket boundaries (seconds) the MCP conventions advise for operation durations. */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/**
 * The tracer and instruments of one app, obtained once when the app is created, through
 * `@opentelemetry/api`: no-ops until the user registers an OpenTelemetry SDK. Register it
 * before `McpFactory.create` (the API hands out a no-op meter to whoever asks before a
 * meter provider exists; the tracer follows a later registration).
 *
 * @example
 * ```ts
 * const telemetry = new McpTelemetry();
 * telemetry.cacheHits.add(1, { "frugal.operation": "list_articles" });
 * ```
 */
export class McpTelemetry {
  readonly tracer: Tracer = trace.getTracer(INSTRUMENTATION_NAME);
  private readonly meter: Meter = metrics.getMeter(INSTRUMENTATION_NAME);
  /** `mcp.server.operation.duration`: calls and errors (by `error.type`) are its counts. */
  readonly duration: Histogram = this.meter.createHistogram("mcp.server.operation.duration", {
    unit: "s",
    description: "MCP request duration as observed on the server, from its start to its answer.",
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  readonly cacheHits: Counter = this.meter.createCounter("frugal.operation.cache.hits", {
    unit: "{call}",
    description: "Calls answered from the cache.",
  });
  readonly cacheMisses: Counter = this.meter.createCounter("frugal.operation.cache.misses", {
    unit: "{call}",
    description: "Calls the cache could not answer, so the handler ran.",
  });
  readonly continuations: Counter = this.meter.createCounter("frugal.operation.continuations", {
    unit: "{call}",
    description:
      "Calls with a cursor, and tail polls (since = nextSince): a model walking on to the next page or chunk.",
  });
  readonly rereads: Counter = this.meter.createCounter("frugal.operation.rereads", {
    unit: "{read}",
    description: "Reads of a resource URI the same owner had read before.",
  });
  readonly bytesOut: Counter = this.meter.createCounter("frugal.operation.output.bytes", {
    unit: "By",
    description: "Bytes of content returned (text as UTF-8, binary as base64).",
  });
  readonly tokensOut: Counter = this.meter.createCounter("frugal.operation.output.tokens", {
    unit: "{token}",
    description: "Tokens returned, counted where a budget applies.",
  });
  readonly listFailures: Counter = this.meter.createCounter("frugal.resources.list.failures", {
    unit: "{failure}",
    description: "Sources of resources/list that failed (the rest was still listed).",
  });
}
