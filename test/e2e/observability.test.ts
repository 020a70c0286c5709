import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import {
  Budget,
  Cached,
  createTestClient,
  Ephemeral,
  LOGGER,
  type Logger,
  McpModule,
  McpService,
  Paginated,
  Prompt,
  Resource,
  type TestClient,
  Tool,
  toolError,
} from "frugal-mcp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type InstalledOtel, installOtel } from "../support/otel.js";

const ITEMS = Array.from({ length: 25 }, (_, i) => ({ id: i }));
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_SPAN_ID = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

@McpService()
class TracedService {
  @Tool({ name: "list_items" })
  @Paginated(["id"], { limit: 10 })
  listItems() {
    return ITEMS;
  }

  @Tool({ name: "report", input: { site: z.string() } })
  @Cached({ ttl: 60_000 })
  @Budget(1_000)
  report({ site }: { site: string }) {
    return { site };
  }

  @Tool({ name: "spilling" })
  @Ephemeral({ when: "always" })
  spilling() {
    return [{ ok: true }];
  }

  @Tool({ name: "refuses" })
  refuses() {
    return toolError("not today");
  }

  /** Starts a span of its own: it must be a child of the call's server span. */
  @Tool({ name: "nested" })
  nested() {
    trace.getTracer("user-code").startSpan("SELECT articles").end();
    return "ok";
  }

  @Resource("notes://{id}")
  note({ id }: { id: string }) {
    if (id === "missing") throw new McpError(ErrorCode.InvalidParams, `no note ${id}`);
    if (id === "bug") throw new TypeError("undefined is not a function");
    return `note ${id}`;
  }

  @Prompt({ name: "greet", input: { name: z.string() } })
  greet({ name }: { name: string }) {
    return `Hello ${name}`;
  }
}

@McpModule({ services: [TracedService] })
class TracedModule {}

describe("OpenTelemetry: spans and metrics per the MCP semantic conventions", () => {
  let otel: InstalledOtel;
  let t: TestClient;
  const serverSpans = () => otel.spans().filter((s) => s.kind === SpanKind.SERVER);
  const only = (name: string): ReadableSpan => {
    const found = serverSpans().filter((s) => s.name === name);
    expect(found.map((s) => s.name)).toEqual([name]);
    return found[0] as ReadableSpan;
  };

  beforeEach(async () => {
    otel = installOtel(); // as a user does: the SDK first, then the app
    t = await createTestClient(TracedModule);
  });
  afterEach(async () => {
    await t.close();
    await otel.uninstall();
  });

  it("traces a tool call as a SERVER span named `tools/call <tool>` with the conventions' attributes", async () => {
    await t.callTool({ name: "list_items", arguments: {} });
    const span = only("tools/call list_items");
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.instrumentationScope.name).toBe("frugal-mcp");
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "list_items",
      "gen_ai.operation.name": "execute_tool",
      "frugal.operation": "list_items",
      "frugal.page.count": 10,
    });
    expect(span.attributes["jsonrpc.request.id"]).toMatch(/^\d+$/);
    expect(span.attributes["mcp.session.id"]).toEqual(expect.any(String));
    expect(span.attributes["error.type"]).toBeUndefined();
    expect(span.parentSpanContext).toBeUndefined();
  });

  it("takes the parent from params._meta.traceparent (W3C propagator)", async () => {
    await t.callTool({
      name: "list_items",
      arguments: {},
      _meta: { traceparent: TRACEPARENT, tracestate: "rojo=00f067aa0ba902b7" },
    });
    const span = only("tools/call list_items");
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.spanContext().traceState?.get("rojo")).toBe("00f067aa0ba902b7");
  });

  it("ignores a malformed or non-string traceparent: the span starts a trace of its own", async () => {
    await t.callTool({ name: "list_items", arguments: {}, _meta: { traceparent: "00-nonsense" } });
    await t.callTool({ name: "list_items", arguments: {}, _meta: { traceparent: { trace: TRACE_ID } } });
    const spans = serverSpans();
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.parentSpanContext).toBeUndefined();
      expect(span.spanContext().traceId).not.toBe(TRACE_ID);
    }
  });

  it("links an ambient context (a transport's span) while the _meta context is the parent", async () => {
    const ambient = trace.getTracer("transport").startSpan("POST /mcp");
    await context.with(trace.setSpan(ROOT_CONTEXT, ambient), () =>
      t.callTool({ name: "list_items", arguments: {}, _meta: { traceparent: TRACEPARENT } }),
    );
    ambient.end();
    const span = only("tools/call list_items");
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(span.links.map((l) => l.context.spanId)).toEqual([ambient.spanContext().spanId]);
  });

  it("runs the handler inside the server span: user code's spans are its children", async () => {
    await t.callTool({ name: "nested", arguments: {}, _meta: { traceparent: TRACEPARENT } });
    const server = only("tools/call nested");
    const child = otel.spans().find((s) => s.name === "SELECT articles");
    expect(child?.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(child?.spanContext().traceId).toBe(TRACE_ID);
  });

  it("adds frugal.cache.hit and frugal.tokens on cached, budgeted calls (a hit included)", async () => {
    await t.callTool({ name: "report", arguments: { site: "a" } });
    await t.callTool({ name: "report", arguments: { site: "a" } });
    const [miss, hit] = serverSpans();
    expect(miss?.attributes["frugal.cache.hit"]).toBe(false);
    expect(hit?.attributes["frugal.cache.hit"]).toBe(true);
    expect(miss?.attributes["frugal.tokens"]).toBeGreaterThan(0);
    expect(hit?.attributes["frugal.tokens"]).toBe(miss?.attributes["frugal.tokens"]);
  });

  it("adds frugal.spilled when a result is stored as a resource", async () => {
    await t.callTool({ name: "spilling", arguments: {} });
    expect(only("tools/call spilling").attributes["frugal.spilled"]).toBe(true);
  });

  it("marks an isError result as an error: status ERROR, error.type tool_error", async () => {
    await t.callTool({ name: "refuses", arguments: {} });
    const span = only("tools/call refuses");
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "not today" });
    expect(span.attributes["error.type"]).toBe("tool_error");
  });

  it("traces resources/read without the URI in the name, and protocol errors by their code", async () => {
    await t.readResource({ uri: "notes://1" });
    await expect(t.readResource({ uri: "notes://missing" })).rejects.toThrow(/no note/);
    await expect(t.readResource({ uri: "notes://bug" })).rejects.toThrow();
    const [ok, missing, bug] = serverSpans();
    expect(ok?.name).toBe("resources/read");
    expect(ok?.attributes).toMatchObject({
      "mcp.method.name": "resources/read",
      "mcp.resource.uri": "notes://1",
      "frugal.operation": "notes://{id}",
    });
    expect(missing?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: expect.stringContaining("no note"),
    });
    expect(missing?.attributes).toMatchObject({
      "error.type": String(ErrorCode.InvalidParams),
      "rpc.response.status_code": String(ErrorCode.InvalidParams),
    });
    expect(missing?.events).toEqual([]);
    // A bug (not a protocol error) answers -32603 and keeps its stack as an exception event.
    expect(bug?.attributes["error.type"]).toBe("-32603");
    expect(bug?.events.map((e) => e.name)).toEqual(["exception"]);
  });

  it("traces prompts/get as `prompts/get <prompt>` with gen_ai.prompt.name", async () => {
    await t.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    expect(only("prompts/get greet").attributes).toMatchObject({
      "mcp.method.name": "prompts/get",
      "gen_ai.prompt.name": "greet",
    });
  });

  it("records mcp.server.operation.duration in seconds, errors by error.type", async () => {
    await t.callTool({ name: "list_items", arguments: {} });
    await t.callTool({ name: "list_items", arguments: {} });
    await t.callTool({ name: "refuses", arguments: {} });
    expect(await otel.unit("mcp.server.operation.duration")).toBe("s");
    const points = await otel.points("mcp.server.operation.duration");
    const of = (tool: string) => points.find((p) => p.attributes["gen_ai.tool.name"] === tool);
    const listed = of("list_items")?.value as {
      count: number;
      sum: number;
      buckets: { boundaries: number[] };
    };
    expect(listed.count).toBe(2);
    expect(listed.sum).toBeGreaterThan(0);
    expect(listed.sum).toBeLessThan(60); // seconds, not milliseconds
    expect(listed.buckets.boundaries).toEqual([
      0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
    ]);
    expect(of("list_items")?.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "list_items",
      "gen_ai.operation.name": "execute_tool",
      "frugal.operation": "list_items",
    });
    expect(of("refuses")?.attributes["error.type"]).toBe("tool_error");
  });

  it("exports the per-operation statistics as counters", async () => {
    let cursor: string | undefined;
    do {
      const result = await t.callTool({ name: "list_items", arguments: cursor ? { cursor } : {} });
      cursor = (result.structuredContent as { nextCursor: string | null }).nextCursor ?? undefined;
    } while (cursor);
    await t.callTool({ name: "report", arguments: { site: "a" } });
    await t.callTool({ name: "report", arguments: { site: "a" } });
    await t.readResource({ uri: "notes://1" });
    await t.readResource({ uri: "notes://1" });
    const value = async (metric: string, operation: string) =>
      (await otel.points(metric)).find((p) => p.attributes["frugal.operation"] === operation)?.value;
    const stats = t.app.stats().operations;
    expect(await value("frugal.operation.continuations", "list_items")).toBe(2);
    expect(await value("frugal.operation.cache.hits", "report")).toBe(1);
    expect(await value("frugal.operation.cache.misses", "report")).toBe(1);
    expect(await value("frugal.operation.rereads", "notes://{id}")).toBe(1);
    expect(await value("frugal.operation.output.bytes", "list_items")).toBe(stats.list_items?.bytesOut);
    expect(await value("frugal.operation.output.tokens", "report")).toBe(stats.report?.tokensOut);
    expect(await otel.unit("frugal.operation.output.bytes")).toBe("By");
  });
});

@McpService()
class BrokenListService {
  @Resource("broken://{id}", {
    list: () => {
      throw new Error("the catalogue database is down");
    },
  })
  broken({ id }: { id: string }) {
    return id;
  }
}

@McpModule({ services: [BrokenListService] })
class BrokenListModule {}

describe("OpenTelemetry: resources/list failures", () => {
  let otel: InstalledOtel;
  let t: TestClient;
  beforeEach(async () => {
    otel = installOtel();
    t = await createTestClient(BrokenListModule);
  });
  afterEach(async () => {
    await t.close();
    await otel.uninstall();
  });

  it("counts a failed listing source under frugal.resources.list.failures", async () => {
    await t.listResources();
    const points = await otel.points("frugal.resources.list.failures");
    expect(points.map((p) => [p.attributes["frugal.source"], p.value])).toEqual([["broken://{id}", 1]]);
  });
});

/** A LOGGER provider that keeps warnings. */
class WarningsLogger implements Logger {
  readonly warnings: string[] = [];
  debug() {}
  info() {}
  warn(message: string) {
    this.warnings.push(message);
  }
  error() {}
}

describe("OpenTelemetry: a faulty SDK", () => {
  it("never fails a call: a span processor that throws is logged as a warning", async () => {
    const throwing = {
      onStart() {},
      onEnd() {
        throw new Error("the exporter's queue is broken");
      },
      forceFlush: async () => {},
      shutdown: async () => {},
    };
    const otel = installOtel([throwing]);
    const logger = new WarningsLogger();
    const t = await createTestClient(TracedModule, { providers: [{ provide: LOGGER, useValue: logger }] });
    try {
      const result = await t.callTool({ name: "list_items", arguments: {} });
      expect(result.isError).toBeFalsy();
      expect(logger.warnings).toContain("recording a call's statistics or span failed");
      expect(t.app.stats().operations.list_items?.calls).toBe(1);
    } finally {
      await t.close();
      await otel.uninstall();
    }
  });
});

describe("OpenTelemetry: nothing registered", () => {
  it("serves calls and keeps statistics with the no-op API", async () => {
    const t = await createTestClient(TracedModule);
    try {
      await t.callTool({ name: "list_items", arguments: {}, _meta: { traceparent: TRACEPARENT } });
      await t.callTool({ name: "nested", arguments: {} });
      expect(t.app.stats().operations.list_items?.calls).toBe(1);
      expect(trace.getActiveSpan()).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
