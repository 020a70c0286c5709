import {
  Cached,
  Invalidates,
  McpModule,
  McpService,
  Prompt,
  Resource,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { z } from "zod";

/** Services served by the protocol-2026 end-to-end tests, on both registrars. */
@McpService()
export class Era2026Service {
  @Tool({ description: "Echo text", input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({ output: { sum: z.number() }, input: { a: z.number(), b: z.number() } })
  typedSum({ a, b }: { a: number; b: number }) {
    return { sum: a + b };
  }

  @Tool({ description: "Asks for a name, then a colour, then answers with both" })
  async askTwice(_input: unknown, ctx: ToolContext) {
    const schema = (field: string) => ({
      type: "object" as const,
      properties: { [field]: { type: "string" as const } },
      required: [field],
    });
    const name = await ctx.elicit({ message: "Your name?", requestedSchema: schema("name") });
    const colour = await ctx.elicit({ message: "Your colour?", requestedSchema: schema("colour") });
    return `${String(name.content?.name)} likes ${String(colour.content?.colour)}`;
  }

  @Tool({ description: "Logs at info, then answers" })
  async chatty(_input: unknown, ctx: ToolContext) {
    await ctx.log.info("working");
    return "done";
  }

  private theme = "dark";

  @Resource("config://app", { mimeType: "application/json" })
  @Cached({ ttl: 60_000, scope: "global", invalidateOn: ["config.changed"] })
  config() {
    return { theme: this.theme };
  }

  @Tool({ description: "Changes the theme", input: { theme: z.string() } })
  @Invalidates("config.changed")
  setTheme({ theme }: { theme: string }) {
    this.theme = theme;
    return "ok";
  }

  @Resource("sites://{site}", {
    complete: { site: (prefix) => ["alpha", "beta"].filter((s) => s.startsWith(prefix)) },
  })
  site({ site }: { site: string }) {
    return `site ${site}`;
  }

  @Prompt({ description: "Greets someone", input: { name: z.string() } })
  greet({ name }: { name: string }) {
    return `Say hello to ${name}.`;
  }
}

@McpModule({ services: [Era2026Service] })
export class Era2026Module {}
