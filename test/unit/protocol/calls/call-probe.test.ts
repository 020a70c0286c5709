import { SpanKind } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import type { Registry } from "../../../../src/builder/registry.js";
import { Cached } from "../../../../src/cache/cached.capability.js";
import { Ephemeral } from "../../../../src/ephemeral/ephemeral.capability.js";
import { AppMetrics } from "../../../../src/metrics/app-metrics.js";
import type { OperationDefinition } from "../../../../src/pipeline/operation.js";
import {
  type CallProbe,
  operationProbe,
  STORED_RESOURCES_KEY,
  storedReadProbe,
} from "../../../../src/protocol/calls/call-probe.js";

const registry = {
  tools: new Map([
    ["search", {}],
    ["a/b", {}],
  ]),
} as unknown as Registry;
const definition = (fields: Record<string, unknown>) =>
  ({ capabilities: new Map(), ...fields }) as unknown as OperationDefinition;

describe("operationProbe", () => {
  it("names a tool call's span and attributes as the semantic conventions do, keyed by the tool", () => {
    const metrics = new AppMetrics();
    const probe = operationProbe(
      definition({ kind: "tool", name: "search", capabilities: new Map([[Cached.capability, { ttl: 1 }]]) }),
      registry,
      metrics,
    );
    expect(probe.key).toBe("search");
    expect(probe.spanName).toBe("tools/call search");
    expect(probe.spanOptions.kind).toBe(SpanKind.SERVER);
    expect(probe.metricAttributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "search",
      "gen_ai.operation.name": "execute_tool",
      "frugal.operation": "search",
    });
    expect([probe.cached, probe.spills]).toEqual([true, false]);
    expect(probe.counters).toBe(metrics.operation("search"));
  });

  it("tells a prompt named like a tool apart, and keeps resource URIs out of span names", () => {
    const metrics = new AppMetrics();
    const prompt = operationProbe(definition({ kind: "prompt", name: "search" }), registry, metrics);
    expect([prompt.key, prompt.spanName]).toEqual(["prompt:search", "prompts/get search"]);
    expect(operationProbe(definition({ kind: "prompt", name: "review" }), registry, metrics).key).toBe(
      "review",
    );
    const resource = operationProbe(
      definition({
        kind: "resource",
        uri: "articles://{id}",
        capabilities: new Map([[Ephemeral.capability, {}]]),
      }),
      registry,
      metrics,
    );
    expect([resource.key, resource.spanName, resource.spills]).toEqual([
      "articles://{id}",
      "resources/read",
      true,
    ]);
  });

  it("gives error attributes per error type, with the status code when asked, made once each", () => {
    const probe = operationProbe(definition({ kind: "tool", name: "search" }), registry, new AppMetrics());
    const failed = probe.errorAttributes("-32602", true);
    expect(failed).toMatchObject({
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
      "frugal.operation": "search",
    });
    expect(probe.errorAttributes("-32602", true)).toBe(failed);
    expect(probe.errorAttributes("tool_error", false)).not.toHaveProperty("rpc.response.status_code");
  });
});

describe("storedReadProbe", () => {
  it("groups stored reads by the tool that stored them, else under one key, one probe per key", () => {
    const metrics = new AppMetrics();
    const probes = new Map<string, CallProbe>();
    const first = storedReadProbe("ephemeral://search/abc", registry, metrics, probes);
    expect(first.key).toBe("ephemeral://search/{id}");
    expect(storedReadProbe("ephemeral://search/def", registry, metrics, probes)).toBe(first);
    expect(storedReadProbe("ephemeral://a%2Fb/x", registry, metrics, probes).key).toBe(
      "ephemeral://a%2Fb/{id}",
    );
    for (const uri of [
      "ephemeral://unknown/x",
      "ephemeral://no-slash",
      "ephemeral://%E0%A4%A/x",
      "other://search/x",
    ])
      expect(storedReadProbe(uri, registry, metrics, probes).key, uri).toBe(STORED_RESOURCES_KEY);
    expect([...probes.keys()].sort()).toEqual([
      STORED_RESOURCES_KEY,
      "ephemeral://a%2Fb/{id}",
      "ephemeral://search/{id}",
    ]);
  });
});
