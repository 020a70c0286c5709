/**
 * Per-call overhead of the 2026-07-28 registrar over a bare SDK v2 server
 * (`npm run build && node --expose-gc .build/bench/overhead-2026.bench.js`).
 *
 * Three servers expose the same trivial tool, `echo({ text })` returning the text:
 *   - bare:    the SDK v2 `McpServer` with `registerTool(...)`, served by `serveStdio`;
 *   - control: a second, identical bare server;
 *   - frugal:  a frugal-mcp app made with `protocol: "2026-07-28"` (`app.connectAnyEra`).
 * Each is reached by a real SDK v2 `Client` pinned to 2026-07-28 over the v2
 * `InMemoryTransport`, so every call carries the per-request `_meta` envelope and pays the
 * full JSON-RPC round trip with both sides' schema checks. Method as `overhead.bench.ts`:
 * warm-up, then rounds of sequential calls in rotating order; ratios are medians of
 * per-round ratios. Goal: frugal/bare ≤ 1.15. `BENCH_ROUNDS` shortens a run.
 */
import "reflect-metadata";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { z } from "zod";
import { bytesPerOperation } from "./lib/allocation.js";
import { type Contender, measureAgainstBare } from "./lib/measure.js";

const WARMUP = 2_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 151);
const CALLS_PER_ROUND = 1_000;
const GOAL = 1.15;

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
    { description: "Echo the text back", inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
}

type ServerSide = ReturnType<typeof InMemoryTransport.createLinkedPair>[1];

/** Links a pinned 2026-07-28 client to a server side; returns a contender calling `echo`. */
async function contender(
  name: string,
  serve: (transport: ServerSide) => Promise<void> | void,
): Promise<Contender> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serve(serverSide);
  const client = new Client(
    { name: "bench", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(clientSide);
  const once = () => client.callTool({ name: "echo", arguments: { text: "hello" } });
  const check = (await once()) as { content: Array<{ text?: string }> };
  if (check.content[0]?.text !== "hello")
    throw new Error(`${name}: unexpected result ${JSON.stringify(check)}`);
  return { name, once };
}

const app = await McpFactory.create(BenchModule, {
  name: "frugal",
  version: "1.0.0",
  protocol: "2026-07-28",
});
const connectAnyEra = (app as unknown as { connectAnyEra(t: ServerSide): Promise<void> }).connectAnyEra.bind(
  app,
);
const contenders = [
  await contender("bare", (t) => void serveStdio(bareServer, { transport: t })),
  await contender("control", (t) => void serveStdio(bareServer, { transport: t })),
  await contender("frugal", (t) => connectAnyEra(t)),
];

const { seconds, usPerCall, toBare } = await measureAgainstBare(contenders, {
  warmup: WARMUP,
  rounds: ROUNDS,
  callsPerRound: CALLS_PER_ROUND,
});
const allocated = await bytesPerOperation(contenders);
const met = toBare.frugal.median <= GOAL;
console.log("| server (MCP 2026-07-28) | µs/call (median) | ratio to bare (median) | ratio p25–p75 |");
console.log("| --- | ---: | ---: | ---: |");
for (const [label, name] of [
  ["bare SDK v2 `McpServer`", "bare"],
  ["bare SDK v2 `McpServer` (control)", "control"],
  ['frugal-mcp, `protocol: "2026-07-28"`', "frugal"],
] as const) {
  const ratio = name === "bare" ? undefined : toBare[name];
  const range = ratio ? `${ratio.p25.toFixed(3)}–${ratio.p75.toFixed(3)}` : "";
  console.log(
    `| ${label} | ${usPerCall[name].median.toFixed(1)} | ${(ratio?.median ?? 1).toFixed(3)} | ${range} |`,
  );
}
console.log(
  `\nfrugal/bare ${toBare.frugal.median.toFixed(3)} (goal ≤ ${GOAL.toFixed(2)}: ${met ? "met" : "NOT met"}), ` +
    `control/bare ${toBare.control.median.toFixed(3)}; ${ROUNDS} rounds × ${CALLS_PER_ROUND} calls per server in ${seconds.toFixed(1)} s`,
);
console.log(
  `allocated per call (garbage included): ${Object.entries(allocated)
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(1)} KiB`)
    .join(", ")}; frugal/bare ${(allocated.frugal / allocated.bare).toFixed(3)}`,
);
mkdirSync("bench/results", { recursive: true });
writeFileSync(
  "bench/results/overhead-2026.json",
  `${JSON.stringify(
    {
      benchmark: "overhead-2026",
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      method: { warmup: WARMUP, rounds: ROUNDS, callsPerRound: CALLS_PER_ROUND, seconds },
      usPerCall,
      ratioToBare: toBare,
      bytesAllocatedPerCall: allocated,
      goal: { frugalToBare: GOAL, met },
    },
    null,
    2,
  )}\n`,
);
await app.close();
process.exit(0);
