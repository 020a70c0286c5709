import { createTestClient, McpModule, McpService, Paginated, Resource, type TestClient } from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

@McpService()
class ReportsService {
  @Resource("reports://sales?format=json{&region}", {
    mimeType: "application/json",
    input: { region: z.string().optional() },
  })
  sales({ region }: { region?: string }) {
    return { region: region ?? "all" };
  }

  // A paginated static URI becomes "feed://items?format=json{?cursor,limit}": the same continuation.
  @Resource("feed://items?format=json")
  @Paginated("n", { limit: 2 })
  items() {
    return [1, 2, 3, 4, 5].map((n) => ({ n }));
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

const textOf = (result: { contents: object[] }) => String((result.contents[0] as { text?: string }).text);

describe("a resource URI with a fixed query continued by {&var}", () => {
  let t: TestClient | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("reads with and without the variable, and refuses a URI without the fixed pair", async () => {
    t = await createTestClient(ReportsModule);
    const { resourceTemplates } = await t.client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain("reports://sales?format=json{&region}");

    const withRegion = await t.client.readResource({ uri: "reports://sales?format=json&region=eu" });
    expect(withRegion.contents[0]?.uri).toBe("reports://sales?format=json&region=eu");
    expect(JSON.parse(textOf(withRegion))).toEqual({ region: "eu" });
    expect(
      JSON.parse(textOf(await t.client.readResource({ uri: "reports://sales?region=us&format=json" }))),
    ).toEqual({
      region: "us",
    });
    expect(JSON.parse(textOf(await t.client.readResource({ uri: "reports://sales?format=json" })))).toEqual({
      region: "all",
    });
    await expect(t.client.readResource({ uri: "reports://sales?region=eu" })).rejects.toThrow(/not found/i);
  });

  it("pages a static URI that has a query of its own", async () => {
    t = await createTestClient(ReportsModule);
    const first = JSON.parse(textOf(await t.client.readResource({ uri: "feed://items?format=json" })));
    expect(first.items).toEqual([{ n: 1 }, { n: 2 }]);
    expect(typeof first.nextCursor).toBe("string");
    const second = JSON.parse(
      textOf(
        await t.client.readResource({
          uri: `feed://items?format=json&cursor=${encodeURIComponent(first.nextCursor)}`,
        }),
      ),
    );
    expect(second.items).toEqual([{ n: 3 }, { n: 4 }]);
  });
});
