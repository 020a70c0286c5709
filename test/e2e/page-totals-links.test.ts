import {
  Budget,
  FrugalConfigError,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  Resource,
  readTable,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";

const DOCS = Array.from({ length: 45 }, (_, i) => ({
  slug: `doc-${String(i).padStart(2, "0")}`,
  title: `Document ${i}`,
  body: "text ".repeat(40),
}));

@McpService()
class DocsService {
  @Tool({ description: "Documents with their total", input: {} })
  @Paginated("slug", { limit: 20 })
  documents(_input: unknown, ctx: ToolContext) {
    const after = ctx.page?.after?.slug as string | undefined;
    const rows = DOCS.filter((d) => after === undefined || d.slug > after).slice(
      0,
      (ctx.page?.limit ?? 20) + 1,
    );
    return { items: rows, total: DOCS.length };
  }

  @Tool({ description: "Documents as links", input: {}, output: { slug: z.string() } })
  @Paginated("slug", {
    limit: 10,
    as: "links",
    link: (doc: { slug: string; title: string }) => ({
      uri: `docs://${doc.slug}`,
      name: doc.slug,
      title: doc.title,
      mimeType: "text/markdown",
    }),
  })
  documentLinks() {
    return { items: DOCS, total: DOCS.length };
  }

  @Tool({ description: "Links under a small budget", input: {} })
  @Paginated("slug", {
    limit: 40,
    as: "links",
    link: (doc: { slug: string }) => ({ uri: `docs://${doc.slug}`, name: doc.slug }),
  })
  @Budget(300)
  budgetedLinks() {
    return DOCS;
  }

  @Tool({ description: "A broken link maker", input: {} })
  @Paginated("slug", { as: "links", link: () => ({ uri: "", name: "x" }) })
  brokenLinks() {
    return DOCS;
  }
}

@McpModule({ services: [DocsService] })
class DocsModule {}

type Envelope = {
  items: unknown[];
  nextCursor: string | null;
  hasMore: boolean;
  count: number;
  total?: number;
};

describe("page totals and pages of links", () => {
  let t: TestClient;
  beforeAll(async () => {
    t = await createTestClient(DocsModule);
  });
  afterAll(() => t.close());

  it("carries the handler's total on every page of a walk", async () => {
    const first = (await t.callTool({ name: "documents", arguments: {} })).structuredContent as Envelope;
    expect(first).toMatchObject({ count: 20, hasMore: true, total: 45 });
    const second = (await t.callTool({ name: "documents", arguments: { cursor: first.nextCursor } }))
      .structuredContent as Envelope;
    expect(second).toMatchObject({ count: 20, total: 45 });
    expect((second.items[0] as { slug: string }).slug).toBe("doc-20");
  });

  it("answers a page of links as one text block and one resource_link per item", async () => {
    const result = await t.callTool({ name: "document_links", arguments: {} });
    const content = result.content as Array<Record<string, unknown>>;
    expect(content).toHaveLength(11);
    expect(content[0]?.type).toBe("text");
    // The envelope's fields on one line (its items are the links, not in the text).
    expect(content[0]?.text).toMatch(/^nextCursor=\S+ hasMore=true count=10 total=45$/);
    const { items, envelope: position } = readTable(content[0]?.text as string);
    expect(items).toBeUndefined();
    expect(position).toEqual({ nextCursor: expect.any(String), hasMore: true, count: 10, total: 45 });
    expect(content[1]).toEqual({
      type: "resource_link",
      uri: "docs://doc-00",
      name: "doc-00",
      title: "Document 0",
      mimeType: "text/markdown",
    });
    const envelope = result.structuredContent as Envelope;
    expect(envelope.items[9]).toMatchObject({ uri: "docs://doc-09", name: "doc-09" });
    expect(envelope).toMatchObject({ count: 10, total: 45, hasMore: true });
    const next = await t.callTool({ name: "document_links", arguments: { cursor: position.nextCursor } });
    expect((next.content as Array<Record<string, unknown>>)[1]).toMatchObject({ uri: "docs://doc-10" });
  });

  it("advertises the link objects as the items of the output schema", async () => {
    const { tools } = await t.listTools();
    // The page is one branch; the others are the size-only and aggregate answers.
    const schema = tools.find((tool) => tool.name === "document_links")?.outputSchema as unknown as {
      anyOf: Array<{ properties: { items: { items: { properties: Record<string, unknown> } } } }>;
    };
    expect(schema.anyOf).toHaveLength(3);
    expect(Object.keys(schema.anyOf[0]?.properties.items.items.properties ?? {})).toEqual([
      "uri",
      "name",
      "title",
      "description",
      "mimeType",
    ]);
  });

  it("shrinks a page of links to the budget, and the next cursor follows the last link sent", async () => {
    const result = await t.callTool({ name: "budgeted_links", arguments: {} });
    const content = result.content as Array<Record<string, unknown>>;
    const envelope = result.structuredContent as Envelope;
    expect(envelope.count).toBeGreaterThan(0);
    expect(envelope.count).toBeLessThan(40);
    expect(content).toHaveLength(envelope.count + 1);
    const next = await t.callTool({ name: "budgeted_links", arguments: { cursor: envelope.nextCursor } });
    expect((next.content as Array<Record<string, unknown>>)[1]).toMatchObject({
      uri: `docs://doc-${String(envelope.count).padStart(2, "0")}`,
    });
  });

  it("answers a link function that makes no URI with an error naming the method", async () => {
    const result = await t.callTool({ name: "broken_links", arguments: {} });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]?.text).toContain(
      "DocsService.brokenLinks: @Paginated's link(item) must return { uri, name }",
    );
  });

  it('refuses `as: "links"` without `link`, and on a resource, at start-up', async () => {
    const startup = async (service: new () => unknown) => {
      @McpModule({ services: [service] })
      class M {}
      return (
        (await McpFactory.create(M, { name: "t", version: "1" }).catch(
          (e: unknown) => e,
        )) as FrugalConfigError
      ).message;
    };
    @McpService()
    class NoLink {
      @Tool()
      @Paginated("id", { as: "links" })
      list() {
        return [];
      }
    }
    expect(await startup(NoLink)).toBe(
      'NoLink.list: @Paginated `as: "links"` needs a `link` function, not undefined. Fix: e.g. link: (item) => ({ uri: item.url, name: item.title }).',
    );
    @McpService()
    class OnResource {
      @Resource("docs://all")
      @Paginated("id", { as: "links", link: () => ({ uri: "x://y", name: "y" }) })
      all() {
        return [];
      }
    }
    expect(await startup(OnResource)).toBe(
      'OnResource.all: @Paginated `as: "links"` applies to tools only (a resource read answers contents, not links). Fix: remove `as` and `link`, or make this method a @Tool.',
    );
  });
});
