import type { ElicitRequestParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { McpService, Tool, type ToolContext } from "frugal-mcp";
import { z } from "zod";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** SEP-1034: a form whose every primitive field carries a default. */
const FORM_WITH_DEFAULTS: ElicitRequestParams = {
  message: "Please review and update the form fields with defaults",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", description: "User name", default: "John Doe" },
      age: { type: "integer", description: "User age", default: 30 },
      score: { type: "number", description: "User score", default: 95.5 },
      status: {
        type: "string",
        description: "User status",
        enum: ["active", "inactive", "pending"],
        default: "active",
      },
      verified: { type: "boolean", description: "Verification status", default: true },
    },
    required: [],
  },
};

const choices = (values: string[], titles: string[]) =>
  values.map((value, i) => ({ const: value, title: titles[i] as string }));

/** SEP-1330: the five ways to ask for one or several values from a list. */
const FORM_WITH_ENUMS: ElicitRequestParams = {
  message: "Please select options from the enum fields",
  requestedSchema: {
    type: "object",
    properties: {
      untitledSingle: {
        type: "string",
        description: "Select one option",
        enum: ["option1", "option2", "option3"],
      },
      titledSingle: {
        type: "string",
        description: "Select one option with titles",
        oneOf: choices(["value1", "value2", "value3"], ["First Option", "Second Option", "Third Option"]),
      },
      legacyEnum: {
        type: "string",
        description: "Select one option (legacy)",
        enum: ["opt1", "opt2", "opt3"],
        enumNames: ["Option One", "Option Two", "Option Three"],
      },
      untitledMulti: {
        type: "array",
        description: "Select multiple options",
        minItems: 1,
        maxItems: 3,
        items: { type: "string", enum: ["option1", "option2", "option3"] },
      },
      titledMulti: {
        type: "array",
        description: "Select multiple options with titles",
        minItems: 1,
        maxItems: 3,
        items: {
          anyOf: choices(["value1", "value2", "value3"], ["First Choice", "Second Choice", "Third Choice"]),
        },
      },
    },
    required: [],
  },
};

const describeAnswer = (answer: ElicitResult) =>
  `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;

/**
 * Tools that talk back to the client while they run: MCP logging, progress, sampling,
 * elicitation, and closing the SSE stream mid-call (SEP-1699). All of it through `ctx`.
 */
@McpService()
export class InteractiveToolsService {
  @Tool({ description: "Tests tool that emits log messages during execution" })
  async testToolWithLogging(_input: unknown, ctx: ToolContext) {
    await ctx.log.info("Tool execution started");
    await sleep(50);
    await ctx.log.info("Tool processing data");
    await sleep(50);
    await ctx.log.info("Tool execution completed");
    return "Tool with logging executed successfully";
  }

  @Tool({ description: "Tests tool that reports progress notifications" })
  async testToolWithProgress(_input: unknown, ctx: ToolContext) {
    for (const done of [0, 50, 100]) {
      if (done > 0) await sleep(50);
      await ctx.progress(done, 100, `Completed step ${done} of 100`);
    }
    return String(ctx.meta.progressToken ?? 0);
  }

  @Tool({
    description: "Tests server-initiated sampling (LLM completion request)",
    input: { prompt: z.string().describe("The prompt to send to the LLM") },
  })
  async testSampling({ prompt }: { prompt: string }, ctx: ToolContext) {
    // A client without the sampling capability makes this throw: the call answers isError.
    const reply = await ctx.sample(prompt, { maxTokens: 100 });
    const answer = reply.content.type === "text" ? reply.content.text : `(${reply.content.type} content)`;
    return `LLM response: ${answer}`;
  }

  @Tool({
    description: "Tests server-initiated elicitation (user input request)",
    input: { message: z.string().describe("The message to show the user") },
  })
  async testElicitation({ message }: { message: string }, ctx: ToolContext) {
    const answer = await ctx.elicit({
      message,
      requestedSchema: {
        type: "object",
        properties: { response: { type: "string", description: "User's response" } },
        required: ["response"],
      },
    });
    return `User response: ${describeAnswer(answer)}`;
  }

  @Tool({ description: "Tests elicitation with default values per SEP-1034" })
  async testElicitationSep1034Defaults(_input: unknown, ctx: ToolContext) {
    return `Elicitation completed: ${describeAnswer(await ctx.elicit(FORM_WITH_DEFAULTS))}`;
  }

  @Tool({ description: "Tests elicitation with enum schema improvements per SEP-1330" })
  async testElicitationSep1330Enums(_input: unknown, ctx: ToolContext) {
    return `Elicitation completed: ${describeAnswer(await ctx.elicit(FORM_WITH_ENUMS))}`;
  }

  @Tool({
    description:
      "Tests SSE stream disconnection and client reconnection (SEP-1699): closes the call's stream, " +
      "then answers once the client has reconnected",
  })
  async testReconnection(_input: unknown, ctx: ToolContext) {
    // Over Streamable HTTP the client reconnects with Last-Event-ID after the `retry` delay and
    // gets this result replayed from the session's event store. Nothing is closed over stdio or
    // in memory, nor for a client older than 2025-11-25 (it got no priming event to resume from).
    const closed = ctx.closeSSEStream();
    await sleep(100);
    return closed
      ? "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure."
      : "Reconnection test completed without closing a stream (no SSE stream, or a client too old to resume one).";
  }
}
