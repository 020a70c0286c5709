/**
 * The contract points of `ctx.callId` and of single completion of 2026-07-28 request state,
 * over stdio (DESIGN.md "Handler signature", "Protocol versions": the 2026-07-28 revision is
 * served "over stdio and Streamable HTTP"), written from its text alone. Each server process is
 * an instance of its own. Runs on the compiled package (`npm run build` first, as `npm test`).
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, it } from "vitest";

const SERVER = "test/support/contract-stdio-server.mjs";
const params = { command: process.execPath, args: [SERVER], stderr: "pipe" as const };
const textOf = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content[0]?.text ?? "") as string;

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) child.kill();
});

/** A raw stdio connection to a new server process: send a JSON-RPC message, await the answer to its id. */
function rawServer() {
  const child = spawn(process.execPath, [SERVER], { stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  const waiting = new Map<number, (message: any) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    waiting.get(message.id)?.(message);
  });
  let id = 0;
  return (method: string, params: Record<string, unknown>) => {
    const mine = ++id;
    const answer = new Promise<any>((resolve) => waiting.set(mine, resolve));
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
    };
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: "2.0", id: mine, method, params: { _meta: meta, ...params } })}\n`,
    );
    return answer;
  };
}

describe("over stdio", () => {
  if (!existsSync("dist/index.js"))
    throw new Error("dist/ is missing: run `npm run build` (npm test does it)");

  it("gives every call a ctx.callId of its own, across connections (instances) and eras", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const client = new Client({ name: "v1", version: "1.0.0" });
      await client.connect(new StdioClientTransport(params));
      for (let j = 0; j < 3; j++) ids.push(textOf(await client.callTool({ name: "id", arguments: {} })));
      await client.close();
    }
    const modern = new ClientV2(
      { name: "v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await modern.connect(new StdioV2(params));
    for (let j = 0; j < 3; j++) ids.push(textOf(await modern.callTool({ name: "id", arguments: {} })));
    await modern.close();
    expect(ids.every((id) => id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(9);
  });

  it("keeps ctx.callId across the input-required rounds of one 2026-07-28 request", async () => {
    const client = new ClientV2(
      { name: "v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } }, capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", async () => ({
      action: "accept" as const,
      content: { colour: "teal" },
    }));
    await client.connect(new StdioV2(params));
    try {
      const first = JSON.parse(textOf(await client.callTool({ name: "ask", arguments: {} })));
      // Both runs of the handler (the asking round and the answered one) saw the same callId.
      expect(first).toMatchObject({ runs: 2, colour: "teal" });
      const second = JSON.parse(textOf(await client.callTool({ name: "ask", arguments: {} })));
      expect(second.callId).not.toBe(first.callId);
      expect(second.runs).toBe(2);
    } finally {
      await client.close();
    }
  });

  it("completes an answered 2026-07-28 request once: the same state again never runs the handler", async () => {
    const send = rawServer();
    const asked = await send("tools/call", { name: "place_order", arguments: { order: "o1" } });
    expect(asked.result?.resultType, JSON.stringify(asked)).toBe("input_required");
    const [key] = Object.keys(asked.result.inputRequests);
    const answered = {
      name: "place_order",
      arguments: { order: "o1" },
      requestState: asked.result.requestState,
      inputResponses: { [key as string]: { action: "accept", content: { pin: "1234" } } },
    };
    const first = await send("tools/call", answered);
    expect(textOf(first.result)).toBe("order o1 with 1234 (run 1)");
    const again = await send("tools/call", answered);
    // An anonymous caller's state is single use: never run again, whether refused or answered.
    expect(textOf(again.result ?? { content: [] })).not.toContain("(run 2)");
  });
});
