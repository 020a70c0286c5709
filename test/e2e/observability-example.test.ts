import type { ExportResult } from "@opentelemetry/core";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import { CLOCK, createTestClient, ManualClock } from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import { MetricsModule } from "../../examples/metrics/app.module.js";
import { cacheBackend } from "../../examples/metrics/cache-backend.js";
import { registerTelemetry } from "../../examples/observability/telemetry.js";
import { ManualReader } from "../support/otel.js";

/** Keeps every span it is given, even after shutdown (the SDK's in-memory one forgets them). */
class KeepingExporter implements SpanExporter {
  readonly spans: ReadableSpan[] = [];
  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.spans.push(...spans);
    done({ code: 0 });
  }
  async shutdown(): Promise<void> {}
}

describe("examples/observability", () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it("exports a span per call and the operation metrics, and app.stats() agrees", async () => {
    const exporter = new KeepingExporter();
    const reader = new ManualReader();
    stop = registerTelemetry({ spanExporter: exporter, metricReader: reader });
    const t = await createTestClient(MetricsModule, {
      providers: [
        { provide: CLOCK, useValue: new ManualClock(Date.UTC(2026, 2, 10, 12)) },
        ...cacheBackend({}),
      ],
    });
    const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    try {
      for (let i = 0; i < 2; i++)
        await t.callTool({ name: "daily_report", arguments: { day: "2026-03-09" }, _meta: { traceparent } });
      await t.readResource({ uri: "config://metrics" });
      const { resourceMetrics } = await reader.collect();
      const names = resourceMetrics.scopeMetrics
        .filter((s) => s.scope.name === "frugal-mcp")
        .flatMap((s) => s.metrics.map((m) => m.descriptor.name));
      expect(names).toEqual(
        expect.arrayContaining([
          "mcp.server.operation.duration",
          "frugal.operation.cache.hits",
          "frugal.operation.output.bytes",
        ]),
      );
      expect(t.app.stats().operations.daily_report).toMatchObject({ calls: 2, cacheHits: 1, cacheMisses: 1 });
    } finally {
      await t.close();
    }
    await stop(); // flushes the batch of spans
    stop = undefined;
    const reports = exporter.spans.filter((s) => s.name === "tools/call daily_report");
    expect(reports.map((s) => s.attributes["frugal.cache.hit"])).toEqual([false, true]);
    expect(reports.every((s) => s.spanContext().traceId === "4bf92f3577b34da6a3ce929d0e0e4736")).toBe(true);
    expect(exporter.spans.find((s) => s.name === "resources/read")?.attributes["mcp.resource.uri"]).toBe(
      "config://metrics",
    );
  });
});
