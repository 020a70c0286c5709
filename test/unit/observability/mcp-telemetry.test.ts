import type { Histogram as HistogramPoint } from "@opentelemetry/sdk-metrics";
import { afterEach, describe, expect, it } from "vitest";
import { FRUGAL_ATTRIBUTES } from "../../../src/observability/mcp-attributes.js";
import { McpTelemetry } from "../../../src/observability/mcp-telemetry.js";
import { type InstalledOtel, installOtel } from "../../support/otel.js";

describe("McpTelemetry", () => {
  let otel: InstalledOtel | undefined;
  afterEach(async () => {
    await otel?.uninstall();
    otel = undefined;
  });

  it("records nothing and throws nothing while no OpenTelemetry SDK is registered", () => {
    const telemetry = new McpTelemetry();
    expect(() => telemetry.cacheHits.add(1)).not.toThrow();
    expect(telemetry.tracer.startSpan("x").isRecording()).toBe(false);
  });

  it("records the MCP operation duration in seconds, in the buckets the conventions advise", async () => {
    otel = installOtel();
    const telemetry = new McpTelemetry();
    telemetry.duration.record(0.015, { [FRUGAL_ATTRIBUTES.operation]: "list_articles" });
    expect(await otel.unit("mcp.server.operation.duration")).toBe("s");
    const [point] = await otel.points("mcp.server.operation.duration");
    const histogram = point?.value as HistogramPoint;
    expect(point?.attributes).toEqual({ "frugal.operation": "list_articles" });
    expect(histogram.count).toBe(1);
    expect(histogram.buckets.boundaries).toEqual([
      0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
    ]);
  });

  it("counts under frugal-mcp's own metric names and units", async () => {
    otel = installOtel();
    const telemetry = new McpTelemetry();
    telemetry.cacheHits.add(2);
    telemetry.bytesOut.add(512);
    telemetry.listFailures.add(1, { [FRUGAL_ATTRIBUTES.source]: "ephemeral" });
    expect((await otel.points("frugal.operation.cache.hits"))[0]?.value).toBe(2);
    expect(await otel.unit("frugal.operation.output.bytes")).toBe("By");
    expect((await otel.points("frugal.operation.output.bytes"))[0]?.value).toBe(512);
    expect((await otel.points("frugal.resources.list.failures"))[0]?.attributes).toEqual({
      "frugal.source": "ephemeral",
    });
  });
});
