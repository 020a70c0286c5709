import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { sessionTransport } from "../../../src/app/session-transport.js";
import { newSession } from "../../../src/protocol/session.js";

/** A session transport over one end of a linked pair; the test plays the client at the other. */
async function setup(draining = false) {
  const [inner, client] = InMemoryTransport.createLinkedPair();
  const atClient: JSONRPCMessage[] = [];
  client.onmessage = (message) => atClient.push(message);
  await client.start();
  const session = newSession(
    () => "s",
    () => undefined,
  );
  const state = { draining };
  const transport = sessionTransport(inner, session, { draining: () => state.draining, maxInputDepth: 3 });
  const atServer: JSONRPCMessage[] = [];
  transport.onmessage = (message) => atServer.push(message);
  await transport.start();
  return { client, atClient, atServer, session, transport, state };
}

describe("sessionTransport", () => {
  it("tracks a request from its arrival to its answer, and forgets a cancelled one", async () => {
    const { client, atServer, session, transport } = await setup();
    await client.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    await client.send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    expect(atServer).toHaveLength(2);
    expect([...session.unanswered.keys()]).toEqual([1, 2]);
    await transport.send({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    expect([...session.unanswered.keys()]).toEqual([2]);
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } });
    expect(session.unanswered.size).toBe(0);
    expect(session.sendsPending).toBe(0);
  });

  it("answers a request at once while the app drains: its handler never sees it", async () => {
    const { client, atClient, atServer, session, state } = await setup();
    state.draining = true;
    await client.send({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "x" } });
    await Promise.resolve();
    expect(atServer).toEqual([]);
    expect(session.unanswered.size).toBe(0);
    expect(atClient).toEqual([
      { jsonrpc: "2.0", id: 5, error: { code: -32000, message: expect.stringContaining("shutting down") } },
    ]);
  });

  it("refuses params nested deeper than the limit before the SDK parses them", async () => {
    const { client, atClient, atServer } = await setup();
    const deep = { a: { b: { c: { d: { e: 1 } } } } };
    await client.send({ jsonrpc: "2.0", id: 6, method: "tools/list", params: { _meta: deep } });
    await Promise.resolve();
    expect(atServer).toEqual([]);
    expect(atClient).toEqual([
      {
        jsonrpc: "2.0",
        id: 6,
        error: { code: -32602, message: expect.stringContaining("nested deeper than 3") },
      },
    ]);
  });

  it("passes answers and other notifications through untouched", async () => {
    const { client, atServer, session } = await setup();
    const answer: JSONRPCMessage = { jsonrpc: "2.0", id: "srv-1", result: {} };
    await client.send(answer);
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(atServer).toEqual([answer, { jsonrpc: "2.0", method: "notifications/initialized" }]);
    expect(session.unanswered.size).toBe(0);
  });
});
