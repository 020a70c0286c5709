/**
 * Compile-time checks of `@Prompt` handlers against their `input` (run by
 * `npm run test:types`). Every `@ts-expect-error` is a negative case.
 */
import { McpService, Prompt, type ToolContext } from "frugal-mcp";
import { z } from "zod";

@McpService()
export class AcceptedPrompts {
  @Prompt({ description: "Review code", input: { code: z.string() } })
  review({ code }: { code: string }) {
    return `Please review:\n${code}`;
  }

  @Prompt({ input: { code: z.string(), language: z.string().optional().describe("e.g. ts") } })
  reviewIn({ code, language }: { code: string; language?: string }, ctx: ToolContext) {
    return [
      { role: "user" as const, content: { type: "text" as const, text: `${language}${code}${ctx.owner}` } },
    ];
  }

  @Prompt({ input: z.object({ code: z.string(), style: z.string().default("terse") }) })
  async styled({ style }: { style: string }) {
    return style;
  }

  @Prompt()
  greeting() {
    return "Hello";
  }

  // Without `input`, the arguments as sent: strings.
  @Prompt()
  raw(args: Record<string, string>) {
    return Object.values(args).join(" ");
  }
}

@McpService()
export class RejectedPrompts {
  // An argument the schema says is a string.
  // @ts-expect-error string is not assignable to number
  @Prompt({ input: { code: z.string() } })
  notAString({ code }: { code: number }) {
    return String(code);
  }

  // An argument the schema does not declare.
  // @ts-expect-error property "language" is missing in the schema's output
  @Prompt({ input: { code: z.string() } })
  undeclared({ code, language }: { code: string; language: string }) {
    return code + language;
  }

  // An optional argument may be missing.
  // @ts-expect-error string | undefined is not assignable to string
  @Prompt({ input: { language: z.string().optional() } })
  optionalRequired({ language }: { language: string }) {
    return language;
  }

  // Without `input`, the arguments are strings.
  // @ts-expect-error string is not assignable to number
  @Prompt()
  rawNotStrings(args: Record<string, number>) {
    return args;
  }
}
