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
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { z } from "zod";
import { bytesPerOperation } from "./lib/allocation.js";
import { type Contender, measureAgainstBare } from "./lib/measure.js";

const WARMUP = 2_000;
const ROUNDS = 151;
const CALLS_PER_ROUND = 2_000;
const GOAL = 1.1;

@McpService()
class EchoService {
  @Tool({ description: "Echo the text back", input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return text;
  }
}

@McpModule({ services: [EchoService] })
class BenchModule {}

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
const app = await McpFactory.create(BenchModule, { name: "frugal", version: "1.0.0" });
const contenders = [
  await contender("bare", (t) => bare.connect(t)),
  await contender("control", (t) => control.connect(t)),
  await contender("frugal", (t) => app.connect(t)),
];

const { seconds, usPerCall, toBare } = await measureAgainstBare(contenders, {
  warmup: WARMUP,
  rounds: ROUNDS,
  callsPerRound: CALLS_PER_ROUND,
});
const allocated = await bytesPerOperation(contenders);
const met = toBare.frugal.median <= GOAL;

const rows: Array<[string, string, { median: number; p25: number; p75: number } | undefined]> = [
  ["bare SDK `McpServer`", "bare", undefined],
  ["bare SDK `McpServer` (control)", "control", toBare.control],
  ["frugal-mcp", "frugal", toBare.frugal],
];
console.log("| server | µs/call (median) | ratio to bare (median) | ratio p25–p75 |");
console.log("| --- | ---: | ---: | ---: |");
for (const [label, name, ratio] of rows) {
  const range = ratio ? `${ratio.p25.toFixed(3)}–${ratio.p75.toFixed(3)}` : "";
  console.log(
    `| ${label} | ${usPerCall[name].median.toFixed(1)} | ${(ratio?.median ?? 1).toFixed(3)} | ${range} |`,
  );
}
console.log(
  `\nfrugal/bare ${toBare.frugal.median.toFixed(3)} (goal ≤ ${GOAL.toFixed(2)}: ${met ? "met" : "NOT met"}), ` +
    `control/bare ${toBare.control.median.toFixed(3)}; ${ROUNDS} rounds × ${CALLS_PER_ROUND} calls per server ` +
    `in ${seconds.toFixed(1)} s`,
);
console.log(
  `allocated per call (garbage included): ${Object.entries(allocated)
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KiB`)
    .join(", ")}; frugal/bare ${(allocated.frugal / allocated.bare).toFixed(3)}`,
);

const results = {
  benchmark: "overhead",
  date: new Date().toISOString(),
  node: process.version,
  cpus: cpus().length,
  method: { warmup: WARMUP, rounds: ROUNDS, callsPerRound: CALLS_PER_ROUND, seconds },
  usPerCall,
  ratioToBare: toBare,
  bytesAllocatedPerCall: allocated,
  goal: { frugalToBare: GOAL, met },
};
const dir = new URL("../../bench/results/", import.meta.url); // from .build/bench/
mkdirSync(dir, { recursive: true });
writeFileSync(new URL("overhead.json", dir), `${JSON.stringify(results, null, 2)}\n`);

await Promise.all(contenders.map((c) => c.client.close()));
await Promise.all([bare.close(), control.close(), app.close()]);
