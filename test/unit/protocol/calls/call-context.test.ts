import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { InMemoryEventBus } from "../../../../src/events/in-memory-event-bus.js";
import { PAGE, PAGE_READ } from "../../../../src/pagination/page-context.js";
import type { CallState } from "../../../../src/pipeline/invocation.js";
import type { ResourceHandle } from "../../../../src/pipeline/resource-handle.js";
import { isSlicedRead } from "../../../../src/pipeline/token-limit.js";
import { CallContext, type RequestExtra } from "../../../../src/protocol/calls/call-context.js";
import { INPUT_KEY_OPTION } from "../../../../src/protocol/calls/client-questions.js";
import { withEnvelope } from "../../../../src/protocol/calls/request-envelope.js";
import { newSession } from "../../../../src/protocol/session.js";

/** A context over a request that records what it sends, answering requests with `answer`. */
function contextOf(
  options: {
    capabilities?: ClientCapabilities;
    stateless?: boolean;
    meta?: Record<string, unknown>;
    owner?: string;
    answer?: (request: { method: string }) => Promise<unknown>;
    modern?: { logLevel?: "info" | "error"; capabilities?: ClientCapabilities };
  } = {},
) {
  const session = newSession(
    () => "s1",
    () => options.capabilities,
    options.stateless ?? false,
  );
  const notifications: Array<{ method: string; params: Record<string, unknown> }> = [];
  const requests: Array<{ request: { method: string }; options: Record<string | symbol, unknown> }> = [];
  const controller = new AbortController();
  let extra = {
    signal: controller.signal,
    requestId: 5,
    _meta: options.meta,
    sendNotification: async (n: { method: string; params: Record<string, unknown> }) =>
      void notifications.push(n),
    sendRequest: async (request: { method: string }, _schema: unknown, opts: Record<string, unknown>) => {
      requests.push({ request, options: opts });
      return (options.answer ?? (async () => ({ action: "accept" })))(request);
    },
  } as unknown as RequestExtra;
  if (options.modern)
    extra = withEnvelope(extra, {
      logLevel: options.modern.logLevel,
      capabilities: options.modern.capabilities,
      outcome: undefined,
    });
  const state: CallState = { signal: undefined, slots: undefined };
  let handles = 0;
  const ctx = new CallContext(
    state,
    session,
    extra,
    options.owner ?? "session:s1",
    new InMemoryEventBus(),
    "search",
    () => {
      handles++;
      return {} as ResourceHandle;
    },
  );
  return { ctx, session, notifications, requests, controller, state, handleCount: () => handles };
}

describe("CallContext", () => {
  it("reports progress only when the client sent a progress token", async () => {
    const silent = contextOf();
    await silent.ctx.progress(1, 2);
    expect(silent.notifications).toEqual([]);
    const watched = contextOf({ meta: { progressToken: "p1" } });
    await watched.ctx.progress(1, 4, "a quarter");
    expect(watched.notifications).toEqual([
      {
        method: "notifications/progress",
        params: { progressToken: "p1", progress: 1, total: 4, message: "a quarter" },
      },
    ]);
  });

  it("logs at or above the session's level, naming the operation, and by the envelope's level on a 2026 request", async () => {
    const c = contextOf();
    c.session.logLevel = "warning";
    await c.ctx.log.info("skipped");
    await c.ctx.log.error("failed", { id: 3 });
    expect(c.notifications).toEqual([
      {
        method: "notifications/message",
        params: { level: "error", logger: "search", data: { message: "failed", data: { id: 3 } } },
      },
    ]);
    // A 2026-07-28 request's envelope names its level; the session's is not used.
    const modern = contextOf({ modern: { logLevel: "error" } });
    modern.session.logLevel = "debug";
    await modern.ctx.log.warning("below the envelope's level");
    await modern.ctx.log.critical("sent");
    expect(modern.notifications.map((n) => n.params.level)).toEqual(["critical"]);
  });

  it("asks the client only for what it declared, passing the question's key and the call's signal", async () => {
    const none = contextOf();
    await expect(
      none.ctx.elicit({ message: "ok?", requestedSchema: { type: "object", properties: {} } }),
    ).rejects.toThrow(
      'The client does not support elicitation/create (it did not declare the "elicitation" capability).',
    );
    const c = contextOf({ capabilities: { elicitation: {}, sampling: {} } });
    expect(
      await c.ctx.elicit(
        { message: "ok?", requestedSchema: { type: "object", properties: {} } },
        { key: "confirm" },
      ),
    ).toEqual({
      action: "accept",
    });
    await c.ctx.sample("Summarize", { maxTokens: 50, temperature: 0.2 });
    expect(c.requests[0]?.options[INPUT_KEY_OPTION]).toBe("confirm");
    expect(c.requests[0]?.options.signal).toBe(c.ctx.signal);
    expect(c.requests[1]?.request).toEqual({
      method: "sampling/createMessage",
      params: {
        messages: [{ role: "user", content: { type: "text", text: "Summarize" } }],
        maxTokens: 50,
        temperature: 0.2,
      },
    });
    await expect(c.ctx.listRoots()).rejects.toThrow(/does not support roots\/list/);
  });

  it("names the client's failure, and refuses questions on a stateless request", async () => {
    const failing = contextOf({
      capabilities: { roots: {} },
      answer: async () => {
        throw new McpError(-32603, "roots unavailable");
      },
    });
    await expect(failing.ctx.listRoots()).rejects.toThrow(
      "roots/list failed on the client: MCP error -32603: roots unavailable",
    );
    const stateless = contextOf({ stateless: true, capabilities: { roots: {} } });
    await expect(stateless.ctx.listRoots()).rejects.toThrow(
      /^ctx\.listRoots \(roots\/list\) is not available on a stateless HTTP server/,
    );
  });

  it("aborts its signal with the request or the session, and stops listening once released", () => {
    const c = contextOf();
    const signal = c.ctx.signal;
    expect(c.ctx.signal).toBe(signal);
    c.session.lifetime.abort(new Error("session closed"));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toEqual(new Error("session closed"));
    const released = contextOf();
    const kept = released.ctx.signal;
    released.ctx.release();
    released.controller.abort();
    expect(kept.aborted).toBe(false);
  });

  it("marks the page read when the handler looks at it, and makes the resource handle once", () => {
    const c = contextOf();
    PAGE.set(c.state, { after: null, limit: 10, fields: undefined, cursor: null });
    expect(PAGE_READ.find(c.state)).toBeUndefined();
    expect(c.ctx.page?.limit).toBe(10);
    expect(PAGE_READ.find(c.state)).toBe(true);
    expect(c.ctx.resources).toBe(c.ctx.resources);
    expect(c.handleCount()).toBe(1);
    expect(() => contextOf({ stateless: true }).ctx.resources).toThrow(
      /ctx\.resources needs an owner that outlives the request/,
    );
    expect(() => contextOf({ stateless: true, owner: "principal:alice" }).ctx.resources).not.toThrow();
  });

  it("gives a nested read the outer call's owner and meta, marked as a sliced read", () => {
    const outer = contextOf({ meta: { progressToken: "p" }, owner: "principal:bob" });
    const nested = CallContext.nested(outer.ctx, { signal: undefined, slots: undefined }, "config://app");
    expect(nested.owner).toBe("principal:bob");
    expect(nested.meta.progressToken).toBe("p");
    expect(isSlicedRead(nested.meta)).toBe(true);
    expect(isSlicedRead(outer.ctx.meta)).toBe(false);
    expect(() => CallContext.nested({} as never, outer.state, "x")).toThrow("not a frugal-mcp call context");
  });
});
