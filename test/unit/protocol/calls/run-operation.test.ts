import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { Operation } from "../../../../src/builder/registry.js";
import { InMemoryEventBus } from "../../../../src/events/in-memory-event-bus.js";
import { AppMetrics } from "../../../../src/metrics/app-metrics.js";
import type { CallOutcome } from "../../../../src/pipeline/call-outcome.js";
import type { Interceptor } from "../../../../src/pipeline/interceptor.js";
import type { Invocation } from "../../../../src/pipeline/invocation.js";
import type { OperationDefinition } from "../../../../src/pipeline/operation.js";
import type { AppRuntime } from "../../../../src/protocol/app-runtime.js";
import type { RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import { CallObserver } from "../../../../src/protocol/calls/call-observer.js";
import { withEnvelope } from "../../../../src/protocol/calls/request-envelope.js";
import { outcomeOf } from "../../../../src/protocol/calls/request-outcomes.js";
import { operationRunner, storedReadRunner } from "../../../../src/protocol/calls/run-operation.js";
import { newSession } from "../../../../src/protocol/session.js";

function setup(appInterceptors: Interceptor[] = []) {
  const metrics = new AppMetrics();
  const runtime = {
    principalOf: (auth: AuthInfo) => auth.clientId,
    events: new InMemoryEventBus(),
    resourceHandle: () => {
      throw new Error("no resource handle in these tests");
    },
    appInterceptors,
    metrics,
  } as unknown as AppRuntime;
  const observer = new CallObserver({ tools: new Map() } as never, metrics, () => {});
  const session = newSession(
    () => "s1",
    () => undefined,
  );
  return { runtime, observer, session, metrics };
}
const extra = (fields: Record<string, unknown> = {}) =>
  ({ signal: new AbortController().signal, requestId: 1, ...fields }) as unknown as RequestExtra;

describe("operationRunner", () => {
  it("runs the operation with a context owned by the caller, in flight until it settles", async () => {
    const { runtime, observer, session } = setup();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: unknown[] = [];
    const search: Operation<OperationDefinition> = {
      definition: {
        kind: "tool",
        name: "search",
        where: "Search.run",
        capabilities: new Map(),
      } as unknown as OperationDefinition,
      execute: async (invocation: Invocation) => {
        seen.push([invocation.args, invocation.ctx.owner]);
        await gate;
        return { content: [] };
      },
    };
    const run = operationRunner(runtime, observer);
    const pending = run(
      session,
      search,
      { q: "x" },
      extra({ authInfo: { clientId: "alice", token: "t", scopes: [] } }),
    );
    expect([...session.inFlight].map(([, name]) => name)).toEqual(["search"]);
    expect(session.principals.has("principal:alice")).toBe(true);
    release();
    expect(await pending).toEqual({ content: [] });
    expect(seen).toEqual([[{ q: "x" }, "principal:alice"]]);
    await expect.poll(() => session.inFlight.size).toBe(0);
  });

  it("keeps the outcome of a 2026-07-28 request for its answer", async () => {
    const { runtime, observer, session } = setup();
    const cached: Operation<OperationDefinition> = {
      definition: {
        kind: "resource",
        uri: "config://app",
        name: "config",
        where: "Config.read",
        capabilities: new Map(),
      } as unknown as OperationDefinition,
      execute: async (invocation: Invocation) => {
        (invocation.outcome as CallOutcome).freshForMs = 1_000;
        return { contents: [] };
      },
    };
    const modern = withEnvelope(extra(), {
      logLevel: undefined,
      capabilities: undefined,
      outcome: undefined,
    });
    await operationRunner(runtime, observer)(session, cached, {}, modern, "config://app");
    expect(outcomeOf(modern)?.freshForMs).toBe(1_000);
  });
});

describe("storedReadRunner", () => {
  const read = async (owner: string): Promise<ReadResourceResult> => ({
    contents: [{ uri: "ephemeral://x/1", text: owner }],
  });

  it("reads as the caller's owner, counted under the stored-resources probe", async () => {
    const { runtime, observer, session, metrics } = setup();
    const result = await storedReadRunner(runtime, observer)(session, extra(), "ephemeral://x/1", read);
    expect(result.contents[0]).toMatchObject({ text: "session:s1" });
    await expect.poll(() => metrics.operation("(stored resources)").calls).toBe(1);
  });

  it("runs the app's interceptors around a stored read", async () => {
    const calls: string[] = [];
    const audit: Interceptor = {
      async intercept(call, next) {
        calls.push(`${call.kind} ${call.name} as ${call.ctx.owner}`);
        return next();
      },
    };
    const { runtime, observer, session } = setup([audit]);
    await storedReadRunner(runtime, observer)(session, extra(), "ephemeral://x/1", read);
    expect(calls).toEqual(["resource ephemeral://x/1 as session:s1"]);
  });
});
