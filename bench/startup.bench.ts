/**
 * Cold start (`npm run bench:startup`): from spawning a server process to its first
 * `tools/list` answered over stdio, and the server's resident memory then.
 *
 * Three servers, compiled to .build/bench/startup/ (each loads ./rss-probe.js first, which
 * prints `process.memoryUsage().rss` to stderr on SIGUSR2):
 *   - bare:       the SDK's `McpServer` with one tool (bare-server.ts);
 *   - quickstart: the README's quick start on frugal-mcp (quickstart-server.ts);
 *   - budget:     frugal-mcp with a `@Budget` tool and an `@Ephemeral` tool, so the
 *                 tokenizer and the built-in resource tools are in play (budget-server.ts).
 *
 * One run of a server: spawn `node <server>.js`, send `initialize` at once (it waits in the
 * pipe until the server reads it), then `notifications/initialized` and `tools/list` when
 * the initialize result arrives, as a client does; the time to the `tools/list` answer is
 * the cold start. Then SIGUSR2 for the RSS, one `tools/call` of the server's first tool
 * (for the budget server, the budgeted one: it is the call that needs the tokenizer), the
 * RSS again, and once more a second later (what loads in the background after the answer
 * shows there); then the process is killed.
 *
 * Method: one untimed run of each server (warming the page cache), then `--runs` rounds
 * (default 15); in each round one run per server, one at a time, in an order that rotates
 * from round to round, so drift hits every server alike. Reported: medians over rounds, and
 * ratios to bare as the median of per-round ratios. Goals: quickstart / bare ≤ 1.3,
 * budget / bare ≤ 1.5 (time to `tools/list`); RSS after the first `tools/call` answer (for the
 * budget server, the first budgeted answer, tokenizer loaded) ≤ 1.3 × bare for the quick start
 * and ≤ 1.4 × bare for the budget server, and the same a second later.
 * Raw figures go to bench/results/startup.json.
 *
 * `--compare <label>=<dir>` adds the quickstart and budget servers of another checkout,
 * built there (`npm run build`), to the same interleaved rounds: a before/after of a change
 * measured side by side, e.g. `--compare before=../frugal-mcp-main` (a checkout older than
 * this bench needs bench/startup/ copied in before its build).
 *
 * The frugal-mcp servers import the package by its name, as users do, so they run on dist/:
 * frugal-mcp's code bundled by rolldown.config.mjs into one shared chunk. `--unbundled` adds
 * the same two servers on tsc's per-module output of the same sources (.build/lib/, which
 * `npm run build` bundles), put in a scratch package under .tmp/: what bundling saves.
 */
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { median, quantile } from "./lib/measure.js";
import { describeMachine, machine, writeResults } from "./lib/report.js";

const runsArg = process.argv.indexOf("--runs");
const RUNS = Number(runsArg === -1 ? (process.env.STARTUP_RUNS ?? 15) : process.argv[runsArg + 1]);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer, not ${RUNS}`);
const STEP_TIMEOUT_MS = 30_000;

interface Server {
  readonly name: string;
  readonly label: string;
  readonly file: string;
  /** The tool called once after `tools/list`. */
  readonly call: { name: string; arguments: Record<string, unknown> };
  readonly goal?: number;
  /** Goal of the RSS after the first call's answer, to bare's. */
  readonly rssGoal?: number;
}

const here = (file: string) => fileURLToPath(new URL(`./startup/${file}`, import.meta.url));
/**
 * A scratch package named frugal-mcp whose dist/ is tsc's per-module output (.build/lib/), with
 * copies of the startup servers (copies: Node resolves a symlinked main module from its target).
 */
function unbundledPackage(): string {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const dir = resolve(root, ".tmp/startup-unbundled");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(resolve(dir, ".build/bench"), { recursive: true });
  const pkg = { name: "frugal-mcp", private: true, type: "module", exports: { ".": "./dist/index.js" } };
  writeFileSync(resolve(dir, "package.json"), `${JSON.stringify(pkg)}\n`);
  symlinkSync(resolve(root, ".build/lib"), resolve(dir, "dist"));
  cpSync(resolve(root, ".build/bench/startup"), resolve(dir, ".build/bench/startup"), { recursive: true });
  return dir;
}

const compared = [
  ...process.argv.flatMap((arg, i) => (process.argv[i - 1] === "--compare" ? [arg] : [])),
  ...(process.argv.includes("--unbundled") ? [`unbundled=${unbundledPackage()}`] : []),
];
const SERVERS: readonly Server[] = [
  {
    name: "bare",
    label: "(a) bare SDK `McpServer`, one tool",
    file: here("bare-server.js"),
    call: { name: "list_notes", arguments: {} },
  },
  {
    name: "quickstart",
    label: "(b) frugal-mcp, README quick start",
    file: here("quickstart-server.js"),
    call: { name: "list_notes", arguments: {} },
    goal: 1.3,
    rssGoal: 1.3,
  },
  {
    name: "budget",
    label: "(c) frugal-mcp, `@Budget` + `@Ephemeral` tools",
    file: here("budget-server.js"),
    call: { name: "rows", arguments: {} },
    goal: 1.5,
    rssGoal: 1.4,
  },
  ...compared.flatMap((spec): Server[] => {
    const [label, dir] = spec.split("=", 2);
    if (!label || !dir) throw new Error(`--compare takes <label>=<dir>, not ${spec}`);
    const there = (file: string) => resolve(dir, ".build/bench/startup", file);
    return [
      {
        name: `${label}:quickstart`,
        label: `(b) ${label}: README quick start`,
        file: there("quickstart-server.js"),
        call: { name: "list_notes", arguments: {} },
      },
      {
        name: `${label}:budget`,
        label: `(c) ${label}: \`@Budget\` + \`@Ephemeral\` tools`,
        file: there("budget-server.js"),
        call: { name: "rows", arguments: {} },
      },
    ];
  }),
];
/** How long after the first call's answer the RSS is read again. */
const SETTLE_MS = 1000;

interface Run {
  /** Spawn to the `tools/list` answer. */
  listMs: number;
  /** RSS right after that answer. */
  rssAfterList: number;
  /** Spawn to the answer of the first `tools/call`. */
  callMs: number;
  /** RSS right after that answer. */
  rssAfterCall: number;
  /** RSS `SETTLE_MS` after that answer. */
  rssSettled: number;
}

type Message = { id?: number; result?: unknown; error?: { message: string } };
type Child = ChildProcessByStdio<Writable, Readable, Readable>;

/** A newline-delimited JSON-RPC peer on a child's stdio, and its RSS reports on stderr. */
class StdioPeer {
  private stdout = "";
  private stderr = "";
  private readonly pending = new Map<number, (message: Message) => void>();
  private rssWaiter: ((rss: number) => void) | undefined;
  private nextId = 1;
  readonly exited: Promise<number | null>;

  constructor(readonly child: Child) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      this.stdout += chunk;
      for (let end = this.stdout.indexOf("\n"); end !== -1; end = this.stdout.indexOf("\n")) {
        const line = this.stdout.slice(0, end);
        this.stdout = this.stdout.slice(end + 1);
        if (!line.trim()) continue;
        const message = JSON.parse(line) as Message;
        if (message.id !== undefined) this.pending.get(message.id)?.(message);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      this.stderr += chunk;
      const found = /rss (\d+)\n/.exec(this.stderr);
      if (found) {
        this.stderr = this.stderr.replace(found[0], "");
        this.rssWaiter?.(Number(found[1]));
      }
    });
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  /** Sends a request; resolves with its result (rejects on an error or a timeout). */
  request(method: string, params: object): Promise<unknown> {
    const id = this.nextId++;
    const answered = new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, (message) => {
        this.pending.delete(id);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result);
      });
    });
    this.send({ jsonrpc: "2.0", id, method, params });
    return this.bounded(answered, method);
  }

  notify(method: string, params: object = {}): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  /** Asks the server for its RSS (SIGUSR2) and resolves with it. */
  rss(): Promise<number> {
    const reported = new Promise<number>((resolve) => {
      this.rssWaiter = resolve;
    });
    this.child.kill("SIGUSR2");
    return this.bounded(reported, "the RSS report");
  }

  async kill(): Promise<void> {
    this.child.kill("SIGKILL");
    await this.exited;
  }

  private send(message: object): void {
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private bounded<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no ${what} within ${STEP_TIMEOUT_MS} ms`)), STEP_TIMEOUT_MS);
      void this.exited.then((code) => reject(new Error(`the server exited (${code}) before ${what}`)));
    });
    return Promise.race([promise, failed])
      .catch((error: Error) => {
        throw new Error(`${error.message}; stderr: ${this.stderr.slice(-2000)}`);
      })
      .finally(() => clearTimeout(timer));
  }
}

async function runOnce(server: Server): Promise<Run> {
  const started = performance.now();
  const child = spawn(process.execPath, [server.file], { stdio: ["pipe", "pipe", "pipe"] });
  const peer = new StdioPeer(child);
  try {
    await peer.request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "bench-startup", version: "1.0.0" },
    });
    peer.notify("notifications/initialized");
    const listed = (await peer.request("tools/list", {})) as { tools: Array<{ name: string }> };
    const listMs = performance.now() - started;
    if (!listed.tools.some((tool) => tool.name === server.call.name))
      throw new Error(`${server.name}: tools/list has no ${server.call.name}`);
    const rssAfterList = await peer.rss();
    const callStarted = performance.now();
    const called = (await peer.request("tools/call", server.call)) as { isError?: boolean };
    const callMs = listMs + (performance.now() - callStarted);
    if (called.isError)
      throw new Error(`${server.name}: ${server.call.name} failed: ${JSON.stringify(called)}`);
    const rssAfterCall = await peer.rss();
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const rssSettled = await peer.rss();
    return { listMs, rssAfterList, callMs, rssAfterCall, rssSettled };
  } finally {
    await peer.kill();
  }
}

for (const server of SERVERS) await runOnce(server); // untimed: page cache, first compile
const runs = new Map(SERVERS.map((s) => [s.name, [] as Run[]]));
const began = Date.now();
for (let round = 0; round < RUNS; round++) {
  for (let i = 0; i < SERVERS.length; i++) {
    const server = SERVERS[(round + i) % SERVERS.length] as Server;
    runs.get(server.name)?.push(await runOnce(server));
  }
  const line = SERVERS.map((s) => `${s.name} ${runs.get(s.name)?.at(-1)?.listMs.toFixed(0)} ms`).join(", ");
  process.stderr.write(`round ${round + 1}/${RUNS}: ${line}\n`);
}
const seconds = (Date.now() - began) / 1000;

const MiB = 2 ** 20;
const of = (name: string, field: keyof Run) => (runs.get(name) ?? []).map((run) => run[field]);
const ratios = (name: string, field: keyof Run) => {
  const bare = of("bare", field);
  return of(name, field).map((value, round) => value / (bare[round] as number));
};
const summary = (values: readonly number[], digits: number) => ({
  median: Number(median(values).toFixed(digits)),
  p25: Number(quantile(values, 0.25).toFixed(digits)),
  p75: Number(quantile(values, 0.75).toFixed(digits)),
});
const fields = ["listMs", "rssAfterList", "callMs", "rssAfterCall", "rssSettled"] as const;
const perServer = Object.fromEntries(
  SERVERS.map((server) => [
    server.name,
    Object.fromEntries(
      fields.map((field) => [
        field,
        {
          ...summary(
            of(server.name, field).map((v) => (field.startsWith("rss") ? v / MiB : v)),
            1,
          ),
          toBare: summary(ratios(server.name, field), 3),
        },
      ]),
    ),
  ]),
) as Record<
  string,
  Record<(typeof fields)[number], ReturnType<typeof summary> & { toBare: ReturnType<typeof summary> }>
>;

const verdict = (ratio: number, goal: number | undefined) =>
  goal === undefined ? "" : ratio <= goal ? `≤ ${goal}: met` : `≤ ${goal}: NOT met`;
console.log(
  "| server | to `tools/list` | ratio | goal | RSS after it | ratio | to first `tools/call` | ratio | RSS after it | ratio | 1 s later | ratio | RSS goal |",
);
console.log("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
for (const server of SERVERS) {
  const s = perServer[server.name];
  if (!s) continue;
  const worst = Math.max(s.rssAfterCall.toBare.median, s.rssSettled.toBare.median);
  console.log(
    `| ${server.label} | ${s.listMs.median.toFixed(0)} ms | ${s.listMs.toBare.median.toFixed(2)} | ${verdict(s.listMs.toBare.median, server.goal)} ` +
      `| ${s.rssAfterList.median.toFixed(1)} MiB | ${s.rssAfterList.toBare.median.toFixed(2)} ` +
      `| ${s.callMs.median.toFixed(0)} ms | ${s.callMs.toBare.median.toFixed(2)} ` +
      `| ${s.rssAfterCall.median.toFixed(1)} MiB | ${s.rssAfterCall.toBare.median.toFixed(2)} ` +
      `| ${s.rssSettled.median.toFixed(1)} MiB | ${s.rssSettled.toBare.median.toFixed(2)} | ${verdict(worst, server.rssGoal)} |`,
  );
}
const date = new Date().toISOString();
console.log(
  `\n${RUNS} interleaved runs per server in ${seconds.toFixed(1)} s; medians; ratios are medians of per-round ratios.` +
    `\nRun ${date.slice(0, 16).replace("T", " ")} UTC on ${describeMachine()}.`,
);

writeResults("startup", {
  benchmark: "startup",
  date,
  machine: machine(),
  method: { runs: RUNS, seconds },
  goals: {
    quickstartToBare: 1.3,
    budgetToBare: 1.5,
    rssAfterFirstAnswerToBare: { quickstart: 1.3, budget: 1.4 },
  },
  servers: perServer,
  raw: Object.fromEntries(runs),
});
