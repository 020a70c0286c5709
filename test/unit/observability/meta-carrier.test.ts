import { context, propagation, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { afterEach, describe, expect, it } from "vitest";
import { META_GETTER } from "../../../src/observability/meta-carrier.js";

describe("META_GETTER", () => {
  afterEach(() => {
    propagation.disable();
  });

  it("hands only string values of _meta to the propagator", () => {
    const meta = { traceparent: "00-abc-def-01", progressToken: 7, nested: { a: 1 } };
    expect(META_GETTER.keys(meta)).toEqual(["traceparent", "progressToken", "nested"]);
    expect(META_GETTER.get(meta, "traceparent")).toBe("00-abc-def-01");
    expect(META_GETTER.get(meta, "progressToken")).toBeUndefined();
    expect(META_GETTER.get(meta, "nested")).toBeUndefined();
    expect(META_GETTER.get(meta, "absent")).toBeUndefined();
  });

  it("lets a W3C propagator read the parent span from a request's _meta", () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const spanId = "00f067aa0ba902b7";
    const meta = { traceparent: `00-${traceId}-${spanId}-01` };
    const parent = trace.getSpanContext(propagation.extract(context.active(), meta, META_GETTER));
    expect(parent).toMatchObject({ traceId, spanId, isRemote: true });
  });
});
