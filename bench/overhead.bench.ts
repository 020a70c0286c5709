/**
 * Per-call overhead of frugal-mcp over the bare SDK (`npm run bench:overhead`).
 *
 * Three servers expose the same trivial tool, `echo({ text })` returning the text:
 *   - bare:    the SDK's `McpServer` with `server.registerTool(...)`;
 *   - control: a second, identical bare `McpServer`;
 *   - frugal:  a frugal-mcp app (`@McpService` + `@Tool`, `McpFactory.create`).
 * Each is reached by a real SDK `Client` over `InMemoryTransport.createLinkedPair()`, so
 * a call pays for the full JSON-RPC round trip, schema checks on both sides included.
 *
 * Method: 2,000 warm-up calls each and one full GC, then 151 rounds; in each round,
 * 2,000 sequential `client.callTool` calls per server, in an order that rotates from
 * round to round. Reported: µs/call as the median over rounds, and the ratios frugal/bare
 * and control/bare as the median of per-round ratios (with their interquartile range).
 * The control shows the noise floor: two identical servers should be within a few % of
 * each other. Rounds are short (~0.1 s) on purpose: this 2-core VM's speed swings by up to
 * 2x over seconds, and only a short round sees all three servers on the same machine.
 * (A forced GC before every batch made the next one slower and noisier; there is one.)
 * Goal: frugal/bare ≤ 1.10. Results also go to bench/results/overhead.json.
 */
import "reflect-metadata";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpFactory } from "frugal-mcp";
import { z } from "zod";
import type { Contender } from "./lib/measure.js";
import { EchoModule, runOverheadBench } from "./lib/overhead.js";

function bareServer(): McpServer {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Echo the text back", inputSchema: { text: z.string() } },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

/** Links a client to a server side, and returns a contender calling `echo` through it. */
async function contender(
  name: string,
  serve: (transport: Transport) => Promise<void>,
): Promise<Contender & { client: Client }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serve(serverSide);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientSide);
  const once = () => client.callTool({ name: "echo", arguments: { text: "hello" } });
  const check = (await once()) as { content: Array<{ text?: string }> };
  if (check.content[0]?.text !== "hello")
    throw new Error(`${name}: unexpected result ${JSON.stringify(check)}`);
  return { name, once, client };
}

const bare = bareServer();
const control = bareServer();
const app = await McpFactory.create(EchoModule, { name: "frugal", version: "1.0.0" });
const contenders = [
  await contender("bare", (t) => bare.connect(t)),
  await contender("control", (t) => control.connect(t)),
  await contender("frugal", (t) => app.connect(t)),
];

await runOverheadBench({
  benchmark: "overhead",
  contenders,
  labels: { bare: "bare SDK `McpServer`", control: "bare SDK `McpServer` (control)", frugal: "frugal-mcp" },
  goal: 1.1,
  warmup: 2_000,
  rounds: 151,
  callsPerRound: 2_000,
});

await Promise.all(contenders.map((c) => c.client.close()));
await Promise.all([bare.close(), control.close(), app.close()]);
