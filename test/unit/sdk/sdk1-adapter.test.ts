import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { asMessage, asReadResult, installHandler } from "../../../src/sdk/sdk1-adapter.js";

describe("sdk1-adapter", () => {
  it("installHandler serves a protocol-neutral handler through the SDK's real Client", async () => {
    const server = new Server({ name: "t", version: "1" }, { capabilities: { tools: {} } });
    installHandler(server, ListToolsRequestSchema, (request) => ({
      tools: [{ name: `echo-${request.method}`, inputSchema: { type: "object" } }],
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: "c", version: "1" });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(["echo-tools/list"]);
    await client.close();
  });

  it("asMessage and asReadResult hand the value on unchanged", () => {
    const message = { jsonrpc: "2.0" as const, id: 1, result: {} };
    expect(asMessage(message)).toBe(message);
    const result = { contents: [] };
    expect(asReadResult(result)).toBe(result);
  });
});
