import { context, metrics, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { type DataPoint, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";

/** A metric reader the test collects by hand, instead of on a timer. */
export class ManualReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/** The OpenTelemetry SDK, registered globally for one test: spans and metrics kept in memory. */
export interface InstalledOtel {
  /** Spans ended so far. */
  spans(): ReadableSpan[];
  /** The data points of one metric of the frugal-mcp scope (empty when it has none). */
  points(metric: string): Promise<Array<DataPoint<unknown>>>;
  /** The unit a metric was created with. */
  unit(metric: string): Promise<string | undefined>;
  /** Unregisters everything, so the next test starts from the no-op API. */
  uninstall(): Promise<void>;
}

/**
 * Registers a tracer provider (in-memory exporter), a meter provider (manual reader), the
 * AsyncLocalStorage context manager and the W3C trace-context propagator, as a user's
 * SDK set-up would, before the app is created.
 */
export function installOtel(extraProcessors: SpanProcessor[] = []): InstalledOtel {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter), ...extraProcessors],
  });
  const reader = new ManualReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());

  const metric = async (name: string) => {
    const { resourceMetrics } = await reader.collect();
    const scope = resourceMetrics.scopeMetrics.find((s) => s.scope.name === "frugal-mcp");
    return scope?.metrics.find((m) => m.descriptor.name === name);
  };
  return {
    spans: () => exporter.getFinishedSpans(),
    points: async (name) => ((await metric(name))?.dataPoints ?? []) as Array<DataPoint<unknown>>,
    unit: async (name) => (await metric(name))?.descriptor.unit,
    async uninstall() {
      trace.disable();
      metrics.disable();
      propagation.disable();
      context.disable();
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
