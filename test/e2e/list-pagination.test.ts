import { createTestClient, McpModule, McpService, Prompt, Resource, Tool } from "frugal-mcp";
import { describe, expect, it } from "vitest";

@McpService()
class ManyService {
  @Tool() t1() {}
  @Tool() t2() {}
  @Tool() t3() {}
  @Tool() t4() {}
  @Tool() t5() {}
  @Resource("r://1") r1() {}
  @Resource("r://2") r2() {}
  @Resource("r://3") r3() {}
  @Resource("tpl://{a}", { list: () => [{ uri: "tpl://x", name: "x" }] }) tpl() {}
  @Resource("tpl2://{a}") tpl2() {}
  @Resource("tpl3://{a}") tpl3() {}
  @Prompt() p1() {}
  @Prompt() p2() {}
  @Prompt() p3() {}
}

@McpModule({ services: [ManyService] })
class ManyModule {}

describe("list pagination", () => {
  it("pages every list operation and omits nextCursor on the last page", async () => {
    const t = await createTestClient(ManyModule, { listPageSize: 2 });
    const walk = async (list: (cursor?: string) => Promise<{ items: string[]; nextCursor?: string }>) => {
      const all: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await list(cursor);
        all.push(...page.items);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      return { all, pages };
    };
    const tools = await walk(async (cursor) => {
      const r = await t.client.listTools({ cursor });
      return { items: r.tools.map((x) => x.name), nextCursor: r.nextCursor };
    });
    expect(tools).toEqual({ all: ["t1", "t2", "t3", "t4", "t5"], pages: 3 });
    const resources = await walk(async (cursor) => {
      const r = await t.client.listResources({ cursor });
      return { items: r.resources.map((x) => x.uri), nextCursor: r.nextCursor };
    });
    expect(resources).toEqual({ all: ["r://1", "r://2", "r://3", "tpl://x"], pages: 2 });
    const templates = await walk(async (cursor) => {
      const r = await t.client.listResourceTemplates({ cursor });
      return { items: r.resourceTemplates.map((x) => x.uriTemplate), nextCursor: r.nextCursor };
    });
    expect(templates.all).toEqual(["tpl://{a}", "tpl2://{a}", "tpl3://{a}"]);
    const prompts = await walk(async (cursor) => {
      const r = await t.client.listPrompts({ cursor });
      return { items: r.prompts.map((x) => x.name), nextCursor: r.nextCursor };
    });
    expect(prompts).toEqual({ all: ["p1", "p2", "p3"], pages: 2 });
    const last = await t.client.listPrompts({ cursor: (await t.client.listPrompts()).nextCursor });
    expect("nextCursor" in last).toBe(false);
    await t.close();
  });

  it("refuses a garbage cursor or one from another list with -32602", async () => {
    const t = await createTestClient(ManyModule, { listPageSize: 2 });
    await expect(t.client.listTools({ cursor: "garbage" })).rejects.toMatchObject({ code: -32602 });
    const promptCursor = (await t.client.listPrompts()).nextCursor;
    await expect(t.client.listTools({ cursor: promptCursor })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("without a cursor"),
    });
    await t.close();
  });
});
