import type { ElicitRequestParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { McpService, Prompt, Tool, type ToolContext } from "frugal-mcp";

/** A form asking for one string field, `field`. */
const askFor = (message: string, field: string): ElicitRequestParams => ({
  message,
  requestedSchema: { type: "object", properties: { [field]: { type: "string" } }, required: [field] },
});

const CONFIRM: ElicitRequestParams = {
  message: "Please confirm",
  requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
};

const field = (answer: ElicitResult, name: string) => String(answer.content?.[name] ?? "(no answer)");
const textOf = (reply: { content: { type: string; text?: string } }) =>
  reply.content.type === "text" ? (reply.content.text ?? "") : `(${reply.content.type} content)`;

/**
 * The 2026-07-28 scenarios' fixtures (SEP-2322 input-required results, SEP-2575 stateless
 * requests), written the await way: on a 2026 request each question ends the call with an
 * input-required result, and the handler runs again with the answers. The suite asks for
 * fixed keys (`user_name`, `capital_question`, `client_roots`), hence `{ key }`. On a 2025
 * session the same handlers send real server-to-client requests and the keys are ignored.
 */
@McpService()
export class InputRequiredToolsService {
  @Tool({ description: "Needs the sampling capability: a client that did not declare it gets -32021" })
  async testMissingCapability(_input: unknown, ctx: ToolContext) {
    return `LLM response: ${textOf(await ctx.sample("Say hello", { maxTokens: 20 }))}`;
  }

  @Tool({ description: "Asks for input while it runs (an input-required result on 2026-07-28)" })
  async testStreamingElicitation(_input: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit(askFor("What is your name?", "name"), { key: "user_name" });
    return `Hello, ${field(answer, "name")}!`;
  }

  @Tool({ description: "Logs while it runs: only sent when the request's envelope names a log level" })
  async testLoggingTool(_input: unknown, ctx: ToolContext) {
    await ctx.log.info("Logging tool started");
    await ctx.log.info("Logging tool finished");
    return "Logging tool executed";
  }

  @Tool({ description: "SEP-2322: one elicitation, answered under user_name" })
  async testInputRequiredResultElicitation(_input: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit(askFor("What is your name?", "name"), { key: "user_name" });
    return `Hello, ${field(answer, "name")}!`;
  }

  @Tool({ description: "SEP-2322: one sampling request, answered under capital_question" })
  async testInputRequiredResultSampling(_input: unknown, ctx: ToolContext) {
    const reply = await ctx.sample("What is the capital of France?", {
      maxTokens: 100,
      key: "capital_question",
    });
    return `Sampling answer: ${textOf(reply)}`;
  }

  @Tool({ description: "SEP-2322: one roots/list request, answered under client_roots" })
  async testInputRequiredResultListRoots(_input: unknown, ctx: ToolContext) {
    const { roots } = await ctx.listRoots({ key: "client_roots" });
    return `Client roots: ${roots.map((root) => root.uri).join(", ") || "(none)"}`;
  }

  @Tool({ description: "SEP-2322: the answer comes back with the signed request state" })
  async testInputRequiredResultRequestState(_input: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit(CONFIRM, { key: "confirm" });
    // Reached only once the request state verified: replay refuses a state that does not.
    return `state-ok: confirmed=${String(answer.content?.ok ?? false)}`;
  }

  @Tool({ description: "SEP-2322: three questions of different kinds in one input-required result" })
  async testInputRequiredResultMultipleInputs(_input: unknown, ctx: ToolContext) {
    // Asked together (not one after another), so they go out in one round.
    const [name, greeting, { roots }] = await Promise.all([
      ctx.elicit(askFor("What is your name?", "name"), { key: "user_name" }),
      ctx.sample("Generate a greeting", { maxTokens: 50, key: "greeting" }),
      ctx.listRoots({ key: "client_roots" }),
    ]);
    return `${textOf(greeting)} ${field(name, "name")} (${roots.length} roots)`;
  }

  @Tool({ description: "SEP-2322: two rounds of questions, the second after the first is answered" })
  async testInputRequiredResultMultiRound(_input: unknown, ctx: ToolContext) {
    const name = await ctx.elicit(askFor("Step 1: What is your name?", "name"), { key: "step1" });
    const color = await ctx.elicit(askFor("Step 2: What is your favorite color?", "color"), { key: "step2" });
    return `${field(name, "name")} likes ${field(color, "color")}`;
  }

  @Tool({ description: "SEP-2322: a tampered request state is refused with -32602" })
  async testInputRequiredResultTamperedState(_input: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit(CONFIRM, { key: "confirm" });
    return `confirmed=${String(answer.content?.ok ?? false)}`;
  }

  @Tool({ description: "SEP-2322: asks only what the request's client capabilities allow" })
  async testInputRequiredResultCapabilities(_input: unknown, ctx: ToolContext) {
    const capabilities = ctx.clientCapabilities ?? {};
    const said: string[] = [];
    if (capabilities.sampling)
      said.push(textOf(await ctx.sample("Say hello", { maxTokens: 20, key: "capital_question" })));
    if (capabilities.elicitation)
      said.push(field(await ctx.elicit(askFor("What is your name?", "name"), { key: "user_name" }), "name"));
    return said.length > 0 ? said.join("; ") : "The client declared neither sampling nor elicitation";
  }

  @Prompt({ description: "SEP-2322: a prompt that asks for its context first" })
  async testInputRequiredResultPrompt(_input: unknown, ctx: ToolContext) {
    const answer = await ctx.elicit(askFor("What context should the prompt use?", "context"), {
      key: "user_context",
    });
    return `Use this context: ${field(answer, "context")}`;
  }
}
