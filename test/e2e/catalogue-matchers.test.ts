/**
 * `tokensOf` and the matchers of `frugal-mcp/testing/vitest` through real SDK clients (1.x and
 * v2): they pass within the ceiling, fail over it with the measured cost in the message, walk
 * every page of `tools/list`, and refuse what they cannot measure by saying what they take.
 */
import "frugal-mcp/testing/vitest";
import { Client as V2Client, InMemoryTransport as V2InMemoryTransport } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { catalogueOf, createTestClient, type TestClient, tokensOf } from "frugal-mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { McpApp2026 } from "../../src/app/app-2026.js";

const LINE = "the quick brown fox jumps over the lazy dog";

@McpService()
class CostService {
  @Tool({ description: "Echoes a word", input: { word: z.string().max(20) } })
  echo({ word }: { word: string }) {
    return word;
  }

  @Tool({ description: "A long answer: the same line many times" })
  long() {
    return Array.from({ length: 200 }, () => LINE).join("\n");
  }

  @Tool({ description: "Answers text and the same data as structured content", output: { n: z.number() } })
  structured() {
    return { n: 42 };
  }

  @Tool({ description: "Does nothing much" })
  idle() {
    return "ok";
  }
}

@McpModule({ services: [CostService] })
class CostModule {}

let t: TestClient;
beforeAll(async () => {
  // Two tools a page: the catalogue matcher must follow nextCursor to see all four.
  t = await createTestClient(CostModule, { listPageSize: 2 });
});
afterAll(() => t?.close());

const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await t.callTool({ name, arguments: args })) as CallToolResult;

describe("tokensOf", () => {
  it("counts what the model reads of a result: its text, not structuredContent again", async () => {
    const result = await call("structured");
    expect(result.structuredContent).toEqual({ n: 42 });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(await tokensOf(result)).toBe(await tokensOf(text));
    expect(await tokensOf(await call("long"))).toBeGreaterThan(1_000);
  });

  it("counts a tools/list answer as each tool's name, description and input schema", async () => {
    const first = await t.listTools();
    expect(first.tools).toHaveLength(2);
    const all = await catalogueOf(t);
    expect(all.map((tool) => tool.name).sort()).toEqual(["echo", "idle", "long", "structured"]);
    const bare = all.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
    expect(await tokensOf({ tools: all })).toBe(await tokensOf(JSON.stringify(bare)));
    expect(await tokensOf(all)).toBe(await tokensOf({ tools: all }));
  });

  it("refuses what it cannot measure, saying what it takes", async () => {
    expect(() => tokensOf({ isError: true })).toThrow(
      /tokensOf takes a tool result \(\{ content \}\), .* not an object with "isError"/,
    );
    expect(() => tokensOf(42)).toThrow(/not 42/);
    expect(() => tokensOf({ tools: [{ description: "no name" }] })).toThrow(/tool 0 of the list has no name/);
  });
});

describe("toCostAtMost", () => {
  it("passes within the ceiling, and under .not when over it", async () => {
    await expect(await call("echo", { word: "hi" })).toCostAtMost(5);
    await expect(await call("long")).not.toCostAtMost(100);
  });

  it("fails over the ceiling with the measured cost", async () => {
    const result = await call("long");
    const cost = await tokensOf(result);
    expect(() => expect(result).toCostAtMost(100)).toThrow(
      `expected the result to cost at most 100 tokens (o200k), but it costs ${cost.toLocaleString("en-US")} (${(cost - 100).toLocaleString("en-US")} over)`,
    );
    const echo = await call("echo", { word: "hi" });
    expect(() => expect(echo).not.toCostAtMost(5)).toThrow(
      /expected the result to cost more than 5 tokens \(o200k\), but it costs 1$/,
    );
  });

  it("refuses a ceiling that is not a number of tokens", async () => {
    const idle = await call("idle");
    expect(() => expect(idle).toCostAtMost(-1)).toThrow(
      "toCostAtMost takes a number of tokens (0 or more), not -1",
    );
  });
});

describe("catalogueToCostAtMost", () => {
  it("passes when every page of the tool list fits, and fails naming the cost and the costliest tools", async () => {
    const cost = await tokensOf(await catalogueOf(t));
    await expect(t).catalogueToCostAtMost(cost);
    await expect(expect(t).catalogueToCostAtMost(cost - 1)).rejects.toThrow(
      new RegExp(
        `^expected the tool list to cost at most ${cost - 1} tokens \\(o200k\\), but its 4 tools cost ${cost} \\(1 over\\)\\. The costliest: echo \\d+, \\w+ \\d+, \\w+ \\d+, \\w+ \\d+\\.$`,
      ),
    );
  });

  it("refuses what is not a client", async () => {
    await expect(expect({ tools: [] }).catalogueToCostAtMost(10)).rejects.toThrow(
      /catalogueOf takes a connected MCP client \(an object with listTools\)/,
    );
  });

  it("measures an SDK v2 client on the 2026-07-28 protocol the same", async () => {
    const app = (await McpFactory.create(CostModule, {
      name: "cost",
      version: "1.0.0",
      protocol: "2026-07-28",
      listPageSize: 3,
    })) as McpApp2026;
    const [clientSide, serverSide] = V2InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new V2Client(
      { name: "cost", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    try {
      await client.connect(clientSide);
      const cost = await tokensOf(await catalogueOf(t));
      await expect(client).catalogueToCostAtMost(cost);
      await expect(expect(client).catalogueToCostAtMost(cost - 1)).rejects.toThrow(/but its 4 tools cost/);
    } finally {
      await client.close();
      await app.close();
    }
  });
});
