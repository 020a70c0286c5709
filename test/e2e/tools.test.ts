import {
  audio,
  embeddedResource,
  image,
  McpModule,
  McpService,
  resourceLink,
  Tool,
  type ToolContext,
  text,
  toolError,
} from "frugal-mcp";
// Through the testing subpath, as the README's tests do.
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

@McpService()
class ShapesService {
  @Tool({ description: "Echo text", input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return text;
  }

  @Tool({ input: { a: z.number().int(), b: z.number().int().max(100) } })
  addNumbers({ a, b }: { a: number; b: number }) {
    return { sum: a + b };
  }

  @Tool({ output: { sum: z.number() }, input: { a: z.number(), b: z.number() } })
  typedSum({ a, b }: { a: number; b: number }) {
    return { sum: a + b };
  }

  @Tool({ output: { sum: z.number() } })
  brokenOutput() {
    return { sum: "not a number" };
  }

  @Tool()
  listOfRows() {
    return [{ id: 1 }, { id: 2 }];
  }

  @Tool()
  media() {
    return [
      text("a chart"),
      image(new Uint8Array([1, 2, 3]), "image/png"),
      audio("AAAA", "audio/wav"),
      resourceLink({ uri: "notes://1", name: "note 1" }),
      embeddedResource({ uri: "notes://2", mimeType: "text/plain", text: "two" }),
    ];
  }

  @Tool()
  fullResult() {
    return { content: [{ type: "text", text: "raw" }], isError: false };
  }

  @Tool()
  fails(): never {
    throw new Error("database unreachable");
  }

  @Tool({ input: { site: z.string() } })
  refuses({ site }: { site: string }) {
    return toolError(`unknown site ${site}`);
  }

  @Tool({ name: "custom.name", title: "Custom", annotations: { readOnlyHint: true }, visibility: ["app"] })
  appOnly() {
    return "for the app";
  }

  @Tool({ input: { items: z.array(z.number()) } })
  countItems({ items }: { items: number[] }) {
    return { count: items.length };
  }

  @Tool()
  whoAmI(_input: unknown, ctx: ToolContext) {
    return { sessionId: ctx.sessionId, owner: ctx.owner };
  }
}

@McpModule({ services: [ShapesService] })
class ShapesModule {}

describe("tools", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(ShapesModule, { inputLimits: { maxElements: 1000, maxBytes: 64 * 1024 } });
  });
  afterAll(() => t.close());

  it("lists tools with snake_case names, schemas, annotations and app-only visibility", async () => {
    const { tools } = await t.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("add_numbers");
    expect(names).toContain("custom.name");
    const add = tools.find((tool) => tool.name === "add_numbers");
    expect(add?.inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "integer" }, b: { type: "integer", maximum: 100 } },
      required: ["a", "b"],
    });
    // Lean: nothing that constrains nothing (an unknown argument is still refused, by name).
    expect(add?.inputSchema).not.toHaveProperty("additionalProperties");
    expect(JSON.stringify(add?.inputSchema)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const custom = tools.find((tool) => tool.name === "custom.name");
    expect(custom).toMatchObject({
      title: "Custom",
      annotations: { readOnlyHint: true },
      _meta: { ui: { visibility: ["app"] } },
    });
    expect(tools.find((tool) => tool.name === "typed_sum")?.outputSchema).toMatchObject({
      type: "object",
      properties: { sum: { type: "number" } },
    });
  });

  it("shapes a string as text", async () => {
    const result = await t.client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result).toEqual({ content: [{ type: "text", text: "hi" }] });
  });

  it("shapes an object as structuredContent plus JSON text", async () => {
    const result = await t.client.callTool({ name: "add_numbers", arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":5}' }]);
  });

  it("shapes an array as text only (structuredContent must be an object): uniform rows as a table", async () => {
    const result = await t.client.callTool({ name: "list_of_rows", arguments: {} });
    expect(result.structuredContent).toBeUndefined();
    // 4 tokens, where '[{"id":1},{"id":2}]' is 11.
    expect(result.content).toEqual([{ type: "text", text: "id\n1\n2" }]);
  });

  it("passes content helpers and full results through", async () => {
    const media = await t.client.callTool({ name: "media", arguments: {} });
    expect((media.content as Array<{ type: string }>).map((c) => c.type)).toEqual([
      "text",
      "image",
      "audio",
      "resource_link",
      "resource",
    ]);
    expect((media.content as Array<{ data?: string }>)[1]?.data).toBe("AQID");
    const full = await t.client.callTool({ name: "full_result", arguments: {} });
    expect(full).toEqual({ content: [{ type: "text", text: "raw" }], isError: false });
  });

  it("checks results against a declared outputSchema", async () => {
    const ok = await t.client.callTool({ name: "typed_sum", arguments: { a: 1, b: 1 } });
    expect(ok.structuredContent).toEqual({ sum: 2 });
    const broken = await t.client.callTool({ name: "broken_output", arguments: {} });
    expect(broken.isError).toBe(true);
    expect(JSON.stringify(broken.content)).toContain("does not match its outputSchema");
    expect(JSON.stringify(broken.content)).toContain("sum");
  });

  it("answers invalid arguments with isError naming each field and what was expected", async () => {
    const result = await t.client.callTool({ name: "add_numbers", arguments: { a: 1.5, b: 500 } });
    expect(result.isError).toBe(true);
    const message = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(message).toContain('tool "add_numbers"');
    expect(message).toMatch(/a: .*int/);
    expect(message).toMatch(/b: .*100/);
  });

  it("reports misspelt and missing arguments", async () => {
    const result = await t.client.callTool({ name: "echo", arguments: { txt: "hi" } });
    expect(result.isError).toBe(true);
    const message = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(message).toContain("text:");
    expect(message).toContain("txt");
  });

  it("turns a thrown error into isError with its message and no stack", async () => {
    const result = await t.client.callTool({ name: "fails", arguments: {} });
    expect(result).toEqual({ content: [{ type: "text", text: "database unreachable" }], isError: true });
  });

  it("passes a returned toolError through", async () => {
    const result = await t.client.callTool({ name: "refuses", arguments: { site: "x" } });
    expect(result).toEqual({ content: [{ type: "text", text: "unknown site x" }], isError: true });
  });

  it("answers an unknown tool with JSON-RPC -32602", async () => {
    await expect(t.client.callTool({ name: "missing", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Unknown tool "missing"'),
    });
  });

  it("refuses oversized arguments before validation", async () => {
    const tooMany = await t.client.callTool({
      name: "count_items",
      arguments: { items: Array.from({ length: 5000 }, (_, i) => i) },
    });
    expect(tooMany.isError).toBe(true);
    expect(JSON.stringify(tooMany.content)).toContain("more than 1000 values");
    const tooBig = await t.client.callTool({ name: "echo", arguments: { text: "x".repeat(100_000) } });
    expect(tooBig.isError).toBe(true);
    expect(JSON.stringify(tooBig.content)).toContain("larger than 65536 bytes");
    const fine = await t.client.callTool({ name: "count_items", arguments: { items: [1, 2, 3] } });
    expect(fine.structuredContent).toEqual({ count: 3 });
  });

  it("gives each in-memory connection its own session and owner", async () => {
    const second = await t.connect();
    const a = (await t.client.callTool({ name: "who_am_i", arguments: {} })).structuredContent as Record<
      string,
      string
    >;
    const b = (await second.callTool({ name: "who_am_i", arguments: {} })).structuredContent as Record<
      string,
      string
    >;
    expect(a.sessionId).toBeTruthy();
    expect(a.sessionId).not.toBe(b.sessionId);
    expect(a.owner).toBe(`session:${a.sessionId}`);
    expect(b.owner).toBe(`session:${b.sessionId}`);
    const again = (await t.client.callTool({ name: "who_am_i", arguments: {} })).structuredContent as Record<
      string,
      string
    >;
    expect(again.sessionId).toBe(a.sessionId);
  });
});
