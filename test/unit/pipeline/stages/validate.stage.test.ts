import { describe, expect, it } from "vitest";
import { z } from "zod";
import { McpService } from "../../../../src/decorators/mcp-service.decorator.js";
import { Prompt } from "../../../../src/decorators/prompt.decorator.js";
import { Resource } from "../../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../../src/decorators/tool.decorator.js";
import { ProtocolError } from "../../../../src/errors/protocol-errors.js";
import type { Stage } from "../../../../src/pipeline/invocation.js";
import type { OperationDefinition } from "../../../../src/pipeline/operation.js";
import { validateStage } from "../../../../src/pipeline/stages/validate.stage.js";
import { invocationOf, promptOf, resourceOf, toolOf } from "../../../support/unit-build.js";

const limits = { maxBytes: 1_000, maxElements: 50, maxDepth: 4 };

@McpService()
class Articles {
  @Tool({ input: { site: z.string(), limit: z.number().int().max(50).default(20) } })
  list() {}
  @Tool() raw() {}
  @Tool({ input: { slug: z.string().refine(async (slug) => slug !== "taken", "slug is taken") } })
  create() {}
  @Resource("articles://{site}/{id}", { input: { site: z.string(), id: z.coerce.number().int() } })
  article() {}
  @Prompt({ input: { topic: z.string() } }) outline() {
    return "";
  }
}

const stageOf = (definition: OperationDefinition) => validateStage(limits).create(definition) as Stage;
const reached = async () => "handler ran";

describe("validateStage", () => {
  it("passes the parsed input, defaults applied, to the rest of the call", async () => {
    const definition = toolOf(Articles, "list");
    const invocation = invocationOf(definition, { site: "blog" });
    expect(await stageOf(definition)(invocation, reached)).toBe("handler ran");
    expect(invocation.input).toEqual({ site: "blog", limit: 20 });
  });

  it("answers a tool's invalid arguments as an isError result naming the fields, without running the rest", async () => {
    const definition = toolOf(Articles, "list");
    let ran = false;
    const result = await stageOf(definition)(invocationOf(definition, { site: 1, limit: 80 }), async () => {
      ran = true;
    });
    expect(ran).toBe(false);
    expect(result).toMatchObject({ isError: true });
    const text = (result as { content: Array<{ text: string }> }).content[0]?.text;
    expect(text).toMatch(
      /^Invalid arguments for tool "list": site: expected string, received number; limit: /,
    );
  });

  it("refuses a resource's or prompt's invalid arguments with -32602 naming the URI or prompt", async () => {
    const resource = resourceOf(Articles, "articles://{site}/{id}");
    const refused = await stageOf(resource)(invocationOf(resource, { site: "blog", id: "x" }), reached).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused).toMatchObject({ code: -32602 });
    expect((refused as Error).message).toMatch(
      /^Invalid arguments for resource "articles:\/\/\{site\}\/\{id\}": id: /,
    );
    const prompt = promptOf(Articles, "outline");
    await expect(stageOf(prompt)(invocationOf(prompt, {}), reached)).rejects.toThrow(
      'Invalid arguments for prompt "outline": topic: missing (expected string)',
    );
  });

  it("refuses oversized arguments before parsing them", async () => {
    const definition = toolOf(Articles, "list");
    const result = await stageOf(definition)(invocationOf(definition, { site: "x".repeat(2_000) }), reached);
    expect((result as { content: Array<{ text: string }> }).content[0]?.text).toMatch(
      /^Invalid arguments for tool "list": arguments are larger than 1000 bytes \(passed in argument `site`\)/,
    );
  });

  it("passes the arguments as the input when the operation declares no schema", async () => {
    const definition = toolOf(Articles, "raw");
    const invocation = invocationOf(definition, { anything: [1, 2] });
    await stageOf(definition)(invocation, reached);
    expect(invocation.input).toEqual({ anything: [1, 2] });
  });

  it("validates schemas with async refinements too", async () => {
    const definition = toolOf(Articles, "create");
    const ok = invocationOf(definition, { slug: "fresh" });
    expect(await stageOf(definition)(ok, reached)).toBe("handler ran");
    expect(ok.input).toEqual({ slug: "fresh" });
    const taken = await stageOf(definition)(invocationOf(definition, { slug: "taken" }), reached);
    expect(taken).toMatchObject({
      isError: true,
      content: [{ type: "text", text: 'Invalid arguments for tool "create": slug: slug is taken' }],
    });
  });
});
