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
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { McpFactory } from "frugal-mcp";
import { z } from "zod";
import type { Contender } from "./lib/measure.js";
import { EchoModule, runOverheadBench } from "./lib/overhead.js";

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

const app = await McpFactory.create(EchoModule, {
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

await runOverheadBench({
  benchmark: "overhead-2026",
  contenders,
  labels: {
    bare: "bare SDK v2 `McpServer`",
    control: "bare SDK v2 `McpServer` (control)",
    frugal: 'frugal-mcp, `protocol: "2026-07-28"`',
  },
  goal: 1.15,
  warmup: 2_000,
  rounds: Number(process.env.BENCH_ROUNDS ?? 151),
  callsPerRound: 1_000,
});
await app.close();
process.exit(0);
