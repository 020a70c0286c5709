import { describe, expect, it } from "vitest";
import { z } from "zod";
import { McpService } from "../../../../src/decorators/mcp-service.decorator.js";
import { Resource } from "../../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../../src/decorators/tool.decorator.js";
import type { Stage } from "../../../../src/pipeline/invocation.js";
import type { OperationDefinition } from "../../../../src/pipeline/operation.js";
import { Oversized, ResultPage } from "../../../../src/pipeline/outcomes.js";
import { shapeStage } from "../../../../src/pipeline/stages/shape.stage.js";
import { toolError } from "../../../../src/results/tool-error.js";
import { BpeTokenCounter } from "../../../../src/tokenizer/bpe-token-counter.js";
import { invocationOf, recordingLogger, resourceOf, toolOf } from "../../../support/unit-build.js";

@McpService()
class Stats {
  @Tool() plain() {}
  @Tool({ output: { total: z.number() } }) total() {}
  @Resource("stats://{day}") day() {}
}

class ThreeItems extends ResultPage<number> {
  readonly items = [1, 2, 3];
  readonly hasMore = false;
  get nextCursor() {
    return null;
  }
  prefix() {
    return this;
  }
  cursorAfter() {
    return null;
  }
  toJSON() {
    return { items: this.items, nextCursor: null, hasMore: false, count: 3 };
  }
}

function run(definition: OperationDefinition, next: () => Promise<unknown>, logger = recordingLogger()) {
  const stage = shapeStage({ logger, counter: new BpeTokenCounter() }).create(definition) as Stage;
  const invocation = invocationOf(definition, {}, { uri: "stats://monday" });
  return { result: stage(invocation, next), invocation, logger };
}

describe("shapeStage", () => {
  it("shapes a tool's value into a CallToolResult and a resource's into contents of the URI read", async () => {
    expect(await run(toolOf(Stats, "plain"), async () => ({ n: 1 })).result).toEqual({
      content: [{ type: "text", text: '{"n":1}' }],
      structuredContent: { n: 1 },
    });
    expect(await run(resourceOf(Stats, "stats://{day}"), async () => "quiet").result).toEqual({
      contents: [{ uri: "stats://monday", mimeType: "text/plain", text: "quiet" }],
    });
  });

  it("answers a tool handler's throw as an isError result with its message, logged at warn", async () => {
    const { result, logger } = run(toolOf(Stats, "plain"), async () => {
      throw new Error("upstream timed out");
    });
    expect(await result).toEqual({ content: [{ type: "text", text: "upstream timed out" }], isError: true });
    expect(logger.lines[0]).toMatchObject({ level: "warn" });
  });

  it("lets a resource handler's throw reject", async () => {
    const { result } = run(resourceOf(Stats, "stats://{day}"), async () => {
      throw new Error("no such day");
    });
    await expect(result).rejects.toThrow("no such day");
  });

  it("enforces a declared outputSchema, naming the field that broke it", async () => {
    expect(await run(toolOf(Stats, "total"), async () => ({ total: 3 })).result).toMatchObject({
      structuredContent: { total: 3 },
    });
    const broken = run(toolOf(Stats, "total"), async () => ({ total: "three" }));
    expect(await broken.result).toEqual(
      toolError(
        'Tool "total" returned a result that does not match its outputSchema: total: expected number, received string',
      ),
    );
    expect(broken.logger.lines[0]).toMatchObject({
      level: "error",
      message: 'tool "total" (Stats.total) broke its outputSchema',
    });
  });

  it("refuses a result without structured content under an outputSchema, but passes an isError result", async () => {
    expect(await run(toolOf(Stats, "total"), async () => "just text").result).toEqual(
      toolError('Tool "total" declares an outputSchema but returned no structured content.'),
    );
    const refusal = toolError("no data for that day");
    expect(await run(toolOf(Stats, "total"), async () => refusal).result).toBe(refusal);
  });

  it("counts a page's items in the call's outcome", async () => {
    const { result, invocation } = run(toolOf(Stats, "plain"), async () => new ThreeItems());
    await result;
    expect(invocation.outcome.pageCount).toBe(3);
  });

  it("treats an oversized value no stage served as a server bug, not a result", async () => {
    const { result } = run(toolOf(Stats, "plain"), async () => new Oversized("x", 9000, 2000));
    expect(await result).toEqual(toolError("a result over its token limit reached the shape stage unserved"));
    const resource = run(resourceOf(Stats, "stats://{day}"), async () => new Oversized("x", 9000, 2000));
    await expect(resource.result).rejects.toThrow(
      "a result over its token limit reached the shape stage unserved",
    );
  });
});
