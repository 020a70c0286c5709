import { describe, expect, it } from "vitest";
import { catalogueOf } from "../../../src/testing/catalogue-of.js";

/** A lister that serves `names` two per page, as a server with a small page size does. */
function pagedLister(names: string[], loop = false) {
  const asked: Array<string | undefined> = [];
  return {
    asked,
    async listTools(params?: { cursor?: string }) {
      asked.push(params?.cursor);
      const offset = loop ? 0 : Number(params?.cursor ?? 0);
      const tools = names
        .slice(offset, offset + 2)
        .map((name) => ({ name, inputSchema: { type: "object" } }));
      const next = offset + 2;
      return { tools, ...(loop || next < names.length ? { nextCursor: String(next) } : {}) };
    },
  };
}

describe("catalogueOf", () => {
  it("follows every nextCursor and returns the whole list in order", async () => {
    const lister = pagedLister(["a", "b", "c", "d", "e"]);
    expect((await catalogueOf(lister)).map((tool) => tool.name)).toEqual(["a", "b", "c", "d", "e"]);
    expect(lister.asked).toEqual([undefined, "2", "4"]);
  });

  it("stops a server that repeats its cursor, saying so", async () => {
    await expect(catalogueOf(pagedLister(["a", "b"], true))).rejects.toThrow(
      "tools/list still had a nextCursor after 1000 pages: the server seems to repeat its cursor",
    );
  });

  it("refuses what is not a client", async () => {
    await expect(catalogueOf({} as never)).rejects.toThrow(/takes a connected MCP client/);
  });
});
