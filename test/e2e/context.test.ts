import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createTestClient, McpModule, McpService, type TestClient, Tool, type ToolContext } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deferredByKey } from "../support/gates.js";

const cancelled: string[] = [];
/** Resolved by `wait_for_cancel` once it listens for the abort of call `id`. */
const waiting = deferredByKey<string>();

@McpService()
class ContextService {
  @Tool({ input: { steps: z.number().int().min(1).max(10) } })
  async work({ steps }: { steps: number }, ctx: ToolContext) {
    for (let i = 1; i <= steps; i++) await ctx.progress(i, steps, `step ${i}`);
    return { done: steps };
  }

  @Tool()
  async chatty(_input: unknown, ctx: ToolContext) {
    await ctx.log.debug("debug detail");
    await ctx.log.info("info message", { rows: 3 });
    await ctx.log.error("error message");
    return "logged";
  }

  @Tool({ input: { id: z.string() } })
  async waitForCancel({ id }: { id: string }, ctx: ToolContext) {
    await new Promise<void>((resolve) => {
      ctx.signal.addEventListener("abort", () => resolve(), { once: true });
      waiting(id).resolve();
    });
    cancelled.push(id);
    return "cancelled";
  }

  @Tool({ input: { question: z.string() } })
  async ask({ question }: { question: string }, ctx: ToolContext) {
    const answer = await ctx.sample(question, { maxTokens: 50 });
    return { answer: answer.content.type === "text" ? answer.content.text : "?" };
  }

  @Tool()
  async confirm(_input: unknown, ctx: ToolContext) {
    const reply = await ctx.elicit({
      mode: "form",
      message: "Proceed?",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
    });
    return { action: reply.action, ok: reply.content?.ok ?? null };
  }

  @Tool()
  async emits(_input: unknown, ctx: ToolContext) {
    await ctx.events.emit("thing.changed", { id: 1 });
    return "emitted";
  }
}

@McpModule({ services: [ContextService] })
class ContextModule {}

describe("ToolContext", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(ContextModule, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  });
  afterAll(() => t.close());

  it("sends progress on the call's own token when asked, and nothing otherwise", async () => {
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await t.client.callTool({ name: "work", arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => seen.push(p),
    });
    expect(result.structuredContent).toEqual({ done: 3 });
    expect(seen).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);
    const quiet = await t.client.callTool({ name: "work", arguments: { steps: 2 } });
    expect(quiet.structuredContent).toEqual({ done: 2 });
  });

  it("sends MCP logging and honours logging/setLevel per session", async () => {
    const other = await t.connect();
    const mine: unknown[] = [];
    const theirs: unknown[] = [];
    t.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void mine.push(n.params));
    other.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void theirs.push(n.params));
    await t.client.setLoggingLevel("warning");
    await t.client.callTool({ name: "chatty", arguments: {} });
    await other.callTool({ name: "chatty", arguments: {} });
    expect(mine).toEqual([{ level: "error", logger: "chatty", data: "error message" }]);
    expect(theirs).toEqual([
      { level: "debug", logger: "chatty", data: "debug detail" },
      { level: "info", logger: "chatty", data: { message: "info message", data: { rows: 3 } } },
      { level: "error", logger: "chatty", data: "error message" },
    ]);
  });

  it("aborts ctx.signal when the client cancels", async () => {
    const controller = new AbortController();
    const call = t.client.callTool({ name: "wait_for_cancel", arguments: { id: "c1" } }, undefined, {
      signal: controller.signal,
    });
    await waiting("c1").promise;
    controller.abort("user gave up");
    await expect(call).rejects.toThrow();
    await expect.poll(() => cancelled).toContain("c1");
  });

  it("aborts running calls when the session ends", async () => {
    const extra = await t.connect();
    const call = extra.callTool({ name: "wait_for_cancel", arguments: { id: "c2" } }).catch(() => "closed");
    await waiting("c2").promise;
    await extra.close();
    expect(await call).toBe("closed");
    await expect.poll(() => cancelled).toContain("c2");
  });

  it("asks the client's model with ctx.sample", async () => {
    t.client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const first = request.params.messages[0]?.content;
      const question = first && "text" in first ? first.text : "";
      return { role: "assistant", model: "test", content: { type: "text", text: `echo: ${question}` } };
    });
    const result = await t.client.callTool({ name: "ask", arguments: { question: "2+2?" } });
    expect(result.structuredContent).toEqual({ answer: "echo: 2+2?" });
  });

  it("asks the user with ctx.elicit", async () => {
    t.client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { ok: true },
    }));
    const result = await t.client.callTool({ name: "confirm", arguments: {} });
    expect(result.structuredContent).toEqual({ action: "accept", ok: true });
  });

  it("fails the call (isError) when the client lacks sampling or elicitation, or answers an error", async () => {
    const bare = await t.connect({});
    const noSampling = await bare.callTool({ name: "ask", arguments: { question: "2+2?" } });
    expect(noSampling.isError).toBe(true);
    expect(noSampling.content).toEqual([
      {
        type: "text",
        text: 'The client does not support sampling/createMessage (it did not declare the "sampling" capability).',
      },
    ]);
    const noElicitation = await bare.callTool({ name: "confirm", arguments: {} });
    expect(noElicitation.isError).toBe(true);
    expect(JSON.stringify(noElicitation.content)).toContain('\\"elicitation\\" capability');

    // The client's error answers the nested request; tools/call still succeeds, with isError.
    const refusing = await t.connect();
    refusing.setRequestHandler(CreateMessageRequestSchema, () => {
      throw new Error("the user declined");
    });
    const refused = await refusing.callTool({ name: "ask", arguments: { question: "2+2?" } });
    expect(refused.isError).toBe(true);
    expect(refused.content).toEqual([
      {
        type: "text",
        text: "sampling/createMessage failed on the client: MCP error -32603: the user declined",
      },
    ]);
  });

  it("emits on the app's event bus", async () => {
    const { EVENT_BUS } = await import("frugal-mcp");
    const received: unknown[] = [];
    const unsubscribe = t.app.get(EVENT_BUS).subscribe((event) => void received.push(event));
    await t.client.callTool({ name: "emits", arguments: {} });
    unsubscribe();
    expect(received).toEqual([{ name: "thing.changed", payload: { id: 1 } }]);
  });
});
