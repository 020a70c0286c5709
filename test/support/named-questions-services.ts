import { McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";

const nameForm = {
  message: "Your name?",
  requestedSchema: {
    type: "object" as const,
    properties: { name: { type: "string" as const } },
    required: ["name"],
  },
};

/** Tools that ask the client several things at once, under names the client answers by. */
@McpService()
export class NamedQuestionsService {
  @Tool({ description: "Asks for a name, a greeting and the roots together, then answers with all three" })
  async gather(_input: unknown, ctx: ToolContext) {
    const [name, greeting, { roots }] = await Promise.all([
      ctx.elicit(nameForm, { key: "user_name" }),
      ctx.sample("Generate a greeting", { maxTokens: 20, key: "capital_question" }),
      ctx.listRoots({ key: "client_roots" }),
    ]);
    const said = greeting.content.type === "text" ? greeting.content.text : "?";
    return `${said} ${String(name.content?.name)}; roots: ${roots.map((root) => root.uri).join(",")}`;
  }

  @Tool({ description: "Asks two questions under one key (a mistake)" })
  async sameKeyTwice(_input: unknown, ctx: ToolContext) {
    await Promise.all([ctx.elicit(nameForm, { key: "same" }), ctx.listRoots({ key: "same" })]);
    return "unreachable";
  }

  @Tool({ description: "Lists the client's roots" })
  async roots(_input: unknown, ctx: ToolContext) {
    const { roots } = await ctx.listRoots();
    return roots.map((root) => root.uri).join(",");
  }

  @Tool({ description: "Answers with the capabilities the client declared" })
  capabilities(_input: unknown, ctx: ToolContext) {
    return JSON.stringify(ctx.clientCapabilities ?? null);
  }
}

@McpModule({ services: [NamedQuestionsService] })
export class NamedQuestionsModule {}
