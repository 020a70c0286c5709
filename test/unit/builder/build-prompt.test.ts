import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Cached } from "../../../src/cache/cached.capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Prompt } from "../../../src/decorators/prompt.decorator.js";
import { Ephemeral } from "../../../src/ephemeral/ephemeral.capability.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";
import { specOf } from "../../../src/pipeline/capability.js";
import { buildServices, promptOf } from "../../support/unit-build.js";

describe("buildPrompt", () => {
  it("lists the prompt with its arguments, required unless optional, and binds the handler", async () => {
    @McpService()
    class Prompts {
      prefix = "Please review";
      @Prompt({
        title: "Code review",
        description: "Review code",
        input: { code: z.string().describe("the code"), focus: z.string().optional() },
        complete: {
          focus(this: Prompts, value: string) {
            return [`${this.prefix}: ${value}`];
          },
        },
      })
      reviewCode({ code }: { code: string }) {
        return `${this.prefix}:\n${code}`;
      }
    }
    const prompt = promptOf(Prompts, "review_code");
    expect(prompt.listing).toEqual({
      name: "review_code",
      title: "Code review",
      description: "Review code",
      arguments: [
        { name: "code", description: "the code", required: true },
        { name: "focus", required: false },
      ],
    });
    expect(prompt.handler({ code: "x()" }, {} as never)).toBe("Please review:\nx()");
    expect(await prompt.complete.focus?.("sec", { arguments: {} })).toEqual(["Please review: sec"]);
    expect([...prompt.capabilities.keys()].map((c) => c.name)).not.toContain("pagination");
  });

  it("carries behaviour decorators that apply to prompts, such as @Cached", () => {
    @McpService()
    class Prompts {
      @Prompt() @Cached({ ttl: 1000 }) daily() {
        return "";
      }
    }
    expect(specOf(promptOf(Prompts, "daily"), Cached.capability)).toEqual({
      ttl: 1000,
      scope: "global",
      invalidateOn: [],
    });
  });

  it("refuses unknown options, @Ephemeral, @Paginated and completions of undeclared arguments", () => {
    @McpService()
    class Typo {
      @Prompt({ descripton: "x" } as never) p() {}
    }
    expect(() => buildServices([Typo])).toThrow("Typo.p: @Prompt has an unknown option `descripton`");
    @McpService()
    class Spill {
      @Prompt() @Ephemeral() p() {}
    }
    expect(() => buildServices([Spill])).toThrow(
      "Spill.p: @Ephemeral applies to tools only. Fix: remove @Ephemeral, or make this method a @Tool.",
    );
    @McpService()
    class Paged {
      @Prompt() @Paginated("id") p() {}
    }
    expect(() => buildServices([Paged])).toThrow("Paged.p: @Paginated does not apply to prompts");
    @McpService()
    class Completes {
      @Prompt({ input: { a: z.string() }, complete: { b: () => [] } }) p() {}
    }
    expect(() => buildServices([Completes])).toThrow(
      'Completes.p: `complete` names argument "b", which the prompt does not declare. Fix: add "b" to `input` or remove its completion.',
    );
  });
});
