import { describe, expect, it } from "vitest";
import { Budget } from "../../../src/budget/budget.capability.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Prompt } from "../../../src/decorators/prompt.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import { Tool } from "../../../src/decorators/tool.decorator.js";
import { ResultPage } from "../../../src/pipeline/outcomes.js";
import { shapeResult, textRendering } from "../../../src/pipeline/shape-result.js";
import { MAX_TOKENS_META } from "../../../src/pipeline/token-limit.js";
import type { TokenCounter } from "../../../src/tokenizer/token-counter.js";
import { invocationOf, promptOf, resourceOf, toolOf } from "../../support/unit-build.js";

/** Counts characters as tokens, and how often it was asked. */
function countingCounter(): TokenCounter & { calls: number } {
  const counter = {
    calls: 0,
    count(text: string) {
      counter.calls++;
      return { tokens: text.length, exact: true };
    },
  };
  return counter;
}

class TwoItems extends ResultPage<{ id: number }> {
  readonly items = [{ id: 1 }, { id: 2 }];
  readonly hasMore = true;
  get nextCursor() {
    return "c2";
  }
  prefix() {
    return this;
  }
  cursorAfter() {
    return "c";
  }
  toJSON() {
    return { items: this.items, nextCursor: this.nextCursor, hasMore: this.hasMore, count: this.count };
  }
}

@McpService()
class Docs {
  @Tool({ text: "json" }) rows() {}
  @Tool() @Budget(700) budgeted() {}
  @Resource("docs://{id}", { mimeType: "text/markdown" }) doc() {}
  @Prompt({ description: "Summarise a doc" }) summarise() {
    return "";
  }
}

describe("shapeResult", () => {
  it("shapes by the operation's kind: a tool result, a resource read of the URI asked, a prompt", async () => {
    const counter = countingCounter();
    const tool = await shapeResult(invocationOf(toolOf(Docs, "rows")), [{ id: 1 }], counter);
    expect(tool).toEqual({ content: [{ type: "text", text: '[{"id":1}]' }] });
    const resource = await shapeResult(
      invocationOf(resourceOf(Docs, "docs://{id}"), {}, { uri: "docs://7" }),
      "# Seven",
      counter,
    );
    expect(resource).toEqual({ contents: [{ uri: "docs://7", mimeType: "text/markdown", text: "# Seven" }] });
    const prompt = await shapeResult(invocationOf(promptOf(Docs, "summarise")), "Summarise", counter);
    expect(prompt).toMatchObject({ description: "Summarise a doc", messages: [{ role: "user" }] });
  });

  it("answers a page with its envelope as structuredContent", async () => {
    const result = (await shapeResult(
      invocationOf(toolOf(Docs, "rows")),
      new TwoItems(),
      countingCounter(),
    )) as {
      structuredContent: unknown;
      content: Array<{ text: string }>;
    };
    expect(result.structuredContent).toEqual({
      items: [{ id: 1 }, { id: 2 }],
      nextCursor: "c2",
      hasMore: true,
      count: 2,
    });
    expect(JSON.parse(result.content[0]?.text ?? "")).toEqual(result.structuredContent);
  });

  it("shapes one value once per call: the budget's shaping is what the shape stage sends", async () => {
    const invocation = invocationOf(toolOf(Docs, "budgeted"));
    const counter = countingCounter();
    const value = [
      { id: 1, title: "a" },
      { id: 2, title: "b" },
    ];
    const first = await shapeResult(invocation, value, counter);
    const counted = counter.calls;
    expect(await shapeResult(invocation, value, counter)).toBe(first);
    expect(counter.calls).toBe(counted);
    expect(await shapeResult(invocation, [{ id: 3 }], counter)).not.toBe(first);
  });
});

describe("textRendering", () => {
  it("uses the tool's text mode and the call's token limit (lowered by the client), else the default", () => {
    const counter = countingCounter();
    expect(textRendering(invocationOf(toolOf(Docs, "rows")), counter)).toMatchObject({
      mode: "json",
      limit: 2000,
    });
    const lowered = invocationOf(toolOf(Docs, "budgeted"), {}, { meta: { [MAX_TOKENS_META]: 300 } });
    expect(textRendering(lowered, counter)).toMatchObject({ mode: "auto", limit: 300, counter });
    expect(textRendering(invocationOf(resourceOf(Docs, "docs://{id}")), counter).mode).toBe("json");
  });
});
