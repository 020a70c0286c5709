/**
 * The heap an open session holds, frugal-mcp against the bare SDK 1.x
 * (`npm run bench:session-heap`; needs `node --expose-gc`).
 *
 * Contenders, all serving the same one tool, `echo({ text })` (the overhead benches' `EchoModule`):
 *   - frugal:      a frugal-mcp app (`McpFactory.create`), each session `app.connect(serverSide)`;
 *   - bare:        per session, the SDK's low-level `new Server(...)` with `tools/list` and
 *                  `tools/call` handlers, then `server.connect(serverSide)`. The tool list it
 *                  answers is the very list the frugal app answers (one shared array), and
 *                  `tools/call` checks the arguments with one shared zod schema, as the
 *                  overhead bench's bare `McpServer` does. Like that baseline, it does not pass
 *                  a `jsonSchemaValidator`, so each `Server` makes its own `AjvJsonSchemaValidator`;
 *   - bare-shared: the same, with one `AjvJsonSchemaValidator` shared by every session, as
 *                  frugal-mcp shares one across its sessions (for reference: it shows what the
 *                  per-session Ajv instance weighs in `bare`).
 * Every session's client side is the same minimal one, so only server-side state differs:
 * an `InMemoryTransport.createLinkedPair()` client end, started, that sends `initialize`
 * (protocolVersion 2025-11-25) and waits for the answer, sends `notifications/initialized`,
 * then one `tools/list` and one `tools/call` (so lazily built state exists), each awaited.
 *
 * Method: a warm-up (100 sessions of each contender, opened and closed), then rounds; in
 * each round every contender, in an order that rotates from round to round: two full GCs,
 * `heapUsed`; open N = 1,000 sessions one after another and keep them open; two GCs,
 * `heapUsed`; (after − before) / N is its bytes per session. Then every session is closed
 * (from the client end) and two GCs run; what stays above `before` is reported as
 * "left after close" (a leak check, ≈ 0 expected). Reported: the median KiB/session over
 * rounds, and the median of per-round ratios frugal/bare and frugal/bare-shared.
 * `BENCH_SESSIONS` and `BENCH_ROUNDS` change N and the number of rounds.
 * Results also go to bench/results/session-heap.json.
 */
import "reflect-metadata";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { McpFactory } from "frugal-mcp";
import { z } from "zod";
import { median, type Spread, spreadOf } from "./lib/measure.js";
import { EchoModule } from "./lib/overhead.js";
import { describeMachine, machine, writeResults } from "./lib/report.js";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP_SESSIONS = 100;
const PROTOCOL_VERSION = "2025-11-25";

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc (npm run bench:session-heap)");

/** Two full GCs, then the heap in use. */
function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

type Serve = (serverSide: Transport) => Promise<void>;

/**
 * The minimal client end of a session: JSON-RPC requests with numeric ids, each answered
 * through a map of waiting resolvers; nothing else.
 */
function minimalClient(transport: InMemoryTransport) {
  let nextId = 1;
  const waiting = new Map<number, (answer: JSONRPCMessage) => void>();
  transport.onmessage = (message) => {
    if ("id" in message && !("method" in message) && typeof message.id === "number") {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  };
  return {
    async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
      const id = nextId++;
      const answered = new Promise<JSONRPCMessage>((resolve) => waiting.set(id, resolve));
      await transport.send({ jsonrpc: "2.0", id, method, params });
      const answer = await answered;
      if (!("result" in answer)) throw new Error(`${method}: ${JSON.stringify(answer)}`);
      return answer.result as Record<string, unknown>;
    },
    notify(method: string): Promise<void> {
      return transport.send({ jsonrpc: "2.0", method });
    },
  };
}

/** Opens one session on `serve` and walks it through initialize, tools/list and tools/call. */
async function openSession(serve: Serve): Promise<InMemoryTransport> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await serve(serverSide);
  const client = minimalClient(clientSide);
  await clientSide.start();
  await client.request("initialize", {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: "bench", version: "1.0.0" },
  });
  await client.notify("notifications/initialized");
  const listed = await client.request("tools/list", {});
  if ((listed.tools as unknown[]).length !== 1) throw new Error(`tools/list: ${JSON.stringify(listed)}`);
  const called = await client.request("tools/call", { name: "echo", arguments: { text: "hello" } });
  const content = called.content as Array<{ text?: string }>;
  if (called.isError || content[0]?.text !== "hello")
    throw new Error(`tools/call: ${JSON.stringify(called)}`);
  return clientSide;
}

// frugal-mcp
const app = await McpFactory.create(EchoModule, { name: "frugal", version: "1.0.0" });

// The bare SDK, answering the tool list the frugal app answers (so the schemas are the same).
const probe = await openSession((t) => app.connect(t));
const tools: Tool[] = await (async () => {
  const listed = await minimalClient(probe).request("tools/list", {});
  return listed.tools as Tool[];
})();
await probe.close();
const echoInput = z.object({ text: z.string() });
const sharedValidator = new AjvJsonSchemaValidator();

function bareServer(validator?: AjvJsonSchemaValidator): Server {
  const server = new Server(
    { name: "bare", version: "1.0.0" },
    { capabilities: { tools: {} }, ...(validator ? { jsonSchemaValidator: validator } : {}) },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    if (request.params.name !== "echo")
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    const parsed = echoInput.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return { isError: true, content: [{ type: "text", text: parsed.error.message }] };
    return { content: [{ type: "text", text: parsed.data.text }] };
  });
  return server;
}

interface HeapContender {
  readonly name: "frugal" | "bare" | "bare-shared";
  readonly label: string;
  readonly serve: Serve;
}

const contenders: readonly HeapContender[] = [
  { name: "frugal", label: "frugal-mcp (`app.connect`)", serve: (t) => app.connect(t) },
  {
    name: "bare",
    label: "bare SDK `Server`, own Ajv validator each",
    serve: (t) => bareServer().connect(t),
  },
  {
    name: "bare-shared",
    label: "bare SDK `Server`, one shared Ajv validator",
    serve: (t) => bareServer(sharedValidator).connect(t),
  },
];

/** Closes sessions from their client end, and lets the close callbacks run. */
async function closeAll(sessions: readonly (InMemoryTransport | undefined)[]): Promise<void> {
  for (const session of sessions) await session?.close();
  await new Promise((resolve) => setImmediate(resolve));
}

interface Sample {
  bytesPerSession: number;
  leftAfterClosePerSession: number;
  msToOpen: number;
}

async function measure(contender: HeapContender, n: number): Promise<Sample> {
  const sessions = new Array<InMemoryTransport | undefined>(n).fill(undefined); // allocated before `before`
  const before = heapUsed();
  const started = performance.now();
  for (let i = 0; i < n; i++) sessions[i] = await openSession(contender.serve);
  const msToOpen = performance.now() - started;
  const after = heapUsed();
  await closeAll(sessions);
  sessions.fill(undefined);
  const closed = heapUsed();
  if (contender.name === "frugal" && app.stats().sessions !== 0)
    throw new Error(`frugal: ${app.stats().sessions} sessions still open after closing`);
  return { bytesPerSession: (after - before) / n, leftAfterClosePerSession: (closed - before) / n, msToOpen };
}

for (const contender of contenders) await measure(contender, WARMUP_SESSIONS);

const samples = new Map(contenders.map((c) => [c.name, [] as Sample[]]));
for (let round = 0; round < ROUNDS; round++) {
  const line: string[] = [];
  for (let i = 0; i < contenders.length; i++) {
    const contender = contenders[(round + i) % contenders.length];
    const sample = await measure(contender, SESSIONS);
    samples.get(contender.name)?.push(sample);
    line.push(`${contender.name} ${(sample.bytesPerSession / 1024).toFixed(1)} KiB`);
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS}: ${line.join(", ")}\n`);
}

const of = (name: HeapContender["name"]) => samples.get(name) ?? [];
const kib = (name: HeapContender["name"]): Spread =>
  spreadOf(
    of(name).map((s) => s.bytesPerSession / 1024),
    2,
  );
const ratios = (top: HeapContender["name"], bottom: HeapContender["name"]) =>
  of(top).map((s, round) => s.bytesPerSession / of(bottom)[round].bytesPerSession);
const toBare = spreadOf(ratios("frugal", "bare"), 3);
const toBareShared = spreadOf(ratios("frugal", "bare-shared"), 3);

console.log(
  `Heap held per open session, N = ${SESSIONS} sessions, ${ROUNDS} rounds (${describeMachine()})\n`,
);
console.log("| server | KiB/session (median) | p25–p75 | left after close (KiB/session) | ms to open N |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const contender of contenders) {
  const spread = kib(contender.name);
  const left = median(of(contender.name).map((s) => s.leftAfterClosePerSession / 1024));
  const ms = median(of(contender.name).map((s) => s.msToOpen));
  console.log(
    `| ${contender.label} | ${spread.median.toFixed(1)} | ${spread.p25.toFixed(1)}–${spread.p75.toFixed(1)} | ${left.toFixed(2)} | ${ms.toFixed(0)} |`,
  );
}
console.log(
  `\nfrugal/bare ${toBare.median.toFixed(3)} (p25–p75 ${toBare.p25.toFixed(3)}–${toBare.p75.toFixed(3)}), ` +
    `frugal/bare-shared ${toBareShared.median.toFixed(3)} (p25–p75 ${toBareShared.p25.toFixed(3)}–${toBareShared.p75.toFixed(3)}); ` +
    `median of per-round ratios over ${ROUNDS} rounds`,
);

writeResults("session-heap", {
  benchmark: "session-heap",
  date: new Date().toISOString(),
  machine: machine(),
  method: {
    sessions: SESSIONS,
    rounds: ROUNDS,
    warmupSessions: WARMUP_SESSIONS,
    protocolVersion: PROTOCOL_VERSION,
    perSession: ["initialize", "notifications/initialized", "tools/list", "tools/call echo"],
  },
  kibPerSession: Object.fromEntries(contenders.map((c) => [c.name, kib(c.name)])),
  ratio: { frugalToBare: toBare, frugalToBareShared: toBareShared },
  leftAfterCloseKibPerSession: Object.fromEntries(
    contenders.map((c) => [
      c.name,
      Number(median(of(c.name).map((s) => s.leftAfterClosePerSession / 1024)).toFixed(2)),
    ]),
  ),
  msToOpenSessions: Object.fromEntries(
    contenders.map((c) => [c.name, Math.round(median(of(c.name).map((s) => s.msToOpen)))]),
  ),
  samples: Object.fromEntries(contenders.map((c) => [c.name, of(c.name)])),
});

await app.close();
