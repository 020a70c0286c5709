import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  ConsoleMetricExporter,
  MeterProvider,
  type MetricReader,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";

/** Where spans and metrics go. Both default to the console. */
export interface TelemetryOptions {
  /** Default: `ConsoleSpanExporter`. In production, an OTLP exporter (see README.md). */
  spanExporter?: SpanExporter;
  /** Default: the console every 10 seconds. In production, an OTLP metric exporter. */
  metricReader?: MetricReader;
}

/**
 * Registers the OpenTelemetry SDK globally, as any Node service does, **before** the app
 * is created: frugal-mcp records through `@opentelemetry/api`, which stays a no-op until a
 * provider is registered (and hands out a no-op meter to whoever asks earlier).
 *
 * - the tracer provider exports every span (`tools/call daily_report`, …);
 * - the meter provider exports `mcp.server.operation.duration` and the `frugal.operation.*`
 *   counters;
 * - the AsyncLocalStorage context manager lets spans of the handlers' own code (a database
 *   query) become children of the call's span;
 * - the W3C propagator reads `traceparent` from a request's `params._meta`, so the client's
 *   trace continues in the server.
 *
 * Returns a function that flushes what is pending and unregisters everything.
 */
export function registerTelemetry(options: TelemetryOptions = {}): () => Promise<void> {
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(options.spanExporter ?? new ConsoleSpanExporter())],
  });
  const meterProvider = new MeterProvider({
    readers: [
      options.metricReader ??
        new PeriodicExportingMetricReader({
          exporter: new ConsoleMetricExporter(),
          exportIntervalMillis: 10_000,
        }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return async () => {
    await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()]);
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
  };
}
