import { SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Registry } from "../../../../src/builder/registry.js";
import { CACHE_HIT, CACHE_MISS } from "../../../../src/cache/cache.stage.js";
import { Cached } from "../../../../src/cache/cached.capability.js";
import { invalidParams } from "../../../../src/errors/protocol-errors.js";
import { AppMetrics } from "../../../../src/metrics/app-metrics.js";
import type { CallOutcome, OutcomeKey } from "../../../../src/pipeline/call-outcome.js";
import type { OperationDefinition } from "../../../../src/pipeline/operation.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import { CallObserver, type ObservedCall } from "../../../../src/protocol/calls/call-observer.js";
import { newSession } from "../../../../src/protocol/session.js";
import { toolError } from "../../../../src/results/tool-error.js";
import { type InstalledOtel, installOtel } from "../../../support/otel.js";

/** A span processor that fails on spans named "tools/call broken", as a buggy exporter would. */
const breaking: SpanProcessor = {
  onStart() {},
  onEnd(span: ReadableSpan) {
    if (span.name === "tools/call broken") throw new Error("exporter bug");
  },
  forceFlush: async () => {},
  shutdown: async () => {},
};
let otel: InstalledOtel;
beforeAll(() => {
  otel = installOtel([breaking]);
});
afterAll(() => otel.uninstall());

const registry = { tools: new Map() } as unknown as Registry;
const tool = (name: string, extra: Record<string, unknown> = {}) =>
  ({ kind: "tool", name, capabilities: new Map(), ...extra }) as unknown as OperationDefinition;
/** An outcome with `key` reported true, as the cache stage reports a hit or a miss. */
const reported = (key: OutcomeKey<boolean>): CallOutcome => {
  const outcome = {} as CallOutcome;
  key.set(outcome, true);
  return outcome;
};
const session = newSession(
  () => "sess-9",
  () => undefined,
);
const call = (fields: Partial<ObservedCall> = {}): ObservedCall => ({
  session,
  extra: { requestId: 4 } as unknown as RequestExtra,
  owner: "session:sess-9",
  uri: undefined,
  args: {},
  outcome: undefined,
  ...fields,
});
const text = (t: string) => ({ content: [{ type: "text", text: t }] });

function setup() {
  const metrics = new AppMetrics();
  const faults: unknown[] = [];
  const observer = new CallObserver(registry, metrics, (fault) => void faults.push(fault));
  return { metrics, faults, observer };
}
const spanNamed = (name: string) =>
  otel
    .spans()
    .filter((s) => s.name === name)
    .at(-1);

describe("CallObserver", () => {
  it("counts a call, its bytes and tokens, and traces it with the request and session ids", async () => {
    const { observer, metrics } = setup();
    const search = tool("search");
    const probe = observer.probe(search);
    expect(observer.probe(search)).toBe(probe); // made once per definition
    let settled = 0;
    const outcome = { tokens: 12 } as CallOutcome;
    const result = await observer.observe(
      probe,
      call({ outcome }),
      async () => text("found"),
      () => void settled++,
    );
    expect(result).toEqual(text("found"));
    await expect.poll(() => settled).toBe(1);
    const stats = metrics.operation("search");
    expect([stats.calls, stats.errors, stats.tokensOut]).toEqual([1, 0, 12]);
    expect(stats.bytesOut).toBeGreaterThan(0);
    const span = spanNamed("tools/call search");
    expect(span?.attributes).toMatchObject({
      "jsonrpc.request.id": "4",
      "mcp.session.id": "sess-9",
      "gen_ai.tool.name": "search",
    });
  });

  it("counts an isError result and a thrown protocol error as errors, and says which in the trace", async () => {
    const { observer, metrics } = setup();
    await observer.observe(observer.probe(tool("flaky")), call(), async () => toolError("bad input"));
    await expect(
      observer.observe(observer.probe(tool("strict")), call(), async () => {
        throw invalidParams("missing q");
      }),
    ).rejects.toThrow("missing q");
    expect(metrics.operation("flaky").errors).toBe(1);
    await expect.poll(() => metrics.operation("strict").errors).toBe(1);
    expect(spanNamed("tools/call flaky")?.status).toMatchObject({
      code: SpanStatusCode.ERROR,
      message: "bad input",
    });
    expect(spanNamed("tools/call strict")?.attributes).toMatchObject({
      "error.type": "-32602",
      "rpc.response.status_code": "-32602",
    });
  });

  it("counts a page asked with a cursor as a continuation, and cache hits and misses", async () => {
    const { observer, metrics } = setup();
    const probe = observer.probe(
      tool("list", { capabilities: new Map([[Cached.capability, { ttl: 1000 }]]) }),
    );
    const page = text("page");
    await observer.observe(probe, call({ outcome: reported(CACHE_MISS) }), async () => page);
    await observer.observe(
      probe,
      call({ args: { cursor: "c1" }, outcome: reported(CACHE_HIT) }),
      async () => page,
    );
    const stats = metrics.operation("list");
    expect([stats.calls, stats.cacheMisses, stats.cacheHits, stats.continuations]).toEqual([2, 1, 1, 1]);
    expect(spanNamed("tools/call list")?.attributes["frugal.cache.hit"]).toBe(true);
  });

  it("reports a fault of the recording, never failing the call", async () => {
    const { observer, faults } = setup();
    expect(
      await observer.observe(observer.probe(tool("broken")), call(), async () => text("still answered")),
    ).toEqual(text("still answered"));
    await expect.poll(() => faults.length).toBe(1);
    expect(String(faults[0])).toContain("exporter bug");
  });
});
