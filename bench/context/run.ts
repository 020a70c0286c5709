import { isDeepStrictEqual } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ManualClock } from "frugal-mcp";
import { median } from "../lib/measure.js";
import { Agent, TokenMeter } from "./agent.js";
import { type ContextData, clockTimes, type DataSize, generateData, LONG_FIELD_BYTES } from "./data.js";
import { bareServer, CAP_BYTES } from "./servers/bare-server.js";
import { frugalApp } from "./servers/frugal-server.js";
import { IssueStore, LogStore } from "./stores.js";
import { TASKS, type Task, type TaskEnv } from "./tasks.js";

/** The servers compared; "the limit" is computed, not served. */
export const CONTENDERS = ["bare", "capped", "frugal"] as const;
export type ContenderName = (typeof CONTENDERS)[number];

/** How one contender did on one task. */
export interface Outcome {
  /** o200k tokens of every result the agent read. */
  tokens: number;
  /** o200k tokens of the arguments it wrote. */
  written: number;
  calls: number;
  correct: boolean;
  /** tokens / the limit's tokens. */
  ratio: number;
  /** The cursors the agent followed: how many, and their median length and tokens. */
  cursors?: { count: number; medianChars: number; medianTokens: number };
  /** Which way the agent went, when it had a choice. */
  strategy?: string;
  /** Why the agent gave up, when it did. */
  error?: string;
}

export interface TaskResult {
  id: string;
  kind: string;
  question: string;
  limit: { tokens: number };
  contenders: Partial<Record<ContenderName, Outcome>>;
}

export interface ContextResults {
  benchmark: "context";
  dataSet: "full" | "small";
  data: { issues: number; logLines: number; longFieldBytes: number; capBytes: number };
  /** tools/list as the agent reads it once per session: tool count and o200k tokens of its JSON. */
  catalogue: Partial<Record<ContenderName, { tools: number; tokens: number }>>;
  tasks: TaskResult[];
}

/** What a server of one contender is made from: this session's stores and clock. */
export interface ServerWorld {
  readonly issues: IssueStore;
  readonly logs: LogStore;
  readonly clock: ManualClock;
}

/** A server connected to the agent's transport; `close` ends it. */
export type ServerFactory = (
  world: ServerWorld,
  transport: InMemoryTransport,
) => Promise<{ close(): Promise<void> }>;

/** The contenders' servers. */
export const SERVERS: Record<ContenderName, ServerFactory> = {
  async bare({ issues, logs }, transport) {
    const server = bareServer(issues, logs);
    await server.connect(transport);
    return server;
  },
  async capped({ issues, logs }, transport) {
    const server = bareServer(issues, logs, CAP_BYTES);
    await server.connect(transport);
    return server;
  },
  async frugal({ issues, logs, clock }, transport) {
    const app = await frugalApp(issues, logs, clock);
    await app.connect(transport);
    return app;
  },
};

export interface RunOptions {
  size: DataSize;
  dataSet: "full" | "small";
  contenders?: readonly ContenderName[];
  /** Task ids to run (default: all). */
  only?: readonly string[];
  progress?: (line: string) => void;
  /** Called after every tool call with what the model read (`--trace`). */
  trace?: (line: string) => void;
  /** Other servers for some contenders (tests drive the agents against doubles). */
  servers?: Partial<Record<ContenderName, ServerFactory>>;
}

/** One task's world: fresh stores (the log grows), a server, a connected client, an agent. */
interface Session {
  env: TaskEnv;
  strategies: string[];
  close(): Promise<void>;
}

async function openSession(
  factory: ServerFactory,
  data: ContextData,
  issues: IssueStore,
  meter: TokenMeter,
): Promise<Session & { agent: Agent }> {
  const logs = new LogStore(data);
  const times = clockTimes(data);
  const clock = new ManualClock(times.before);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await factory({ issues, logs, clock }, serverSide);
  const client = new Client({ name: "context-bench-agent", version: "1.0.0" });
  await client.connect(clientSide);
  const agent = await Agent.connect(client, meter);
  const strategies: string[] = [];
  return {
    agent,
    strategies,
    env: {
      agent,
      data,
      arrive() {
        logs.arrive();
        clock.set(times.after);
      },
      note: (strategy) => strategies.push(strategy),
    },
    async close() {
      await client.close();
      await server.close();
    },
  };
}

async function runTask(
  task: Task,
  contender: ContenderName,
  factory: ServerFactory,
  data: ContextData,
  issues: IssueStore,
  meter: TokenMeter,
  limitTokens: number,
  trace?: (line: string) => void,
): Promise<Outcome> {
  const session = await openSession(factory, data, issues, meter);
  const { agent } = session;
  if (trace)
    agent.onCall = (tool, args, read, text) => {
      const shown = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);
      trace(
        `  ${tool}(${shown(args, 200)}) → ${read} tokens: ${shown(text, Number(process.env.TRACE_CHARS ?? 400))}`,
      );
    };
  let answer: unknown;
  let error: string | undefined;
  try {
    answer = await (contender === "frugal" ? task.frugal : task.bare)(session.env);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown);
  } finally {
    await session.close();
  }
  const outcome: Outcome = {
    tokens: agent.read,
    written: agent.written,
    calls: agent.calls,
    correct: error === undefined && isDeepStrictEqual(answer, task.truth(data)),
    ratio: Number((agent.read / limitTokens).toFixed(2)),
  };
  if (agent.cursors.length > 0)
    outcome.cursors = {
      count: agent.cursors.length,
      medianChars: median(agent.cursors.map((c) => c.chars)),
      medianTokens: median(agent.cursors.map((c) => c.tokens)),
    };
  if (session.strategies.length > 0) outcome.strategy = [...new Set(session.strategies)].join("; ");
  if (error !== undefined) outcome.error = error;
  return outcome;
}

/** Runs every task against every contender on freshly generated data. */
export async function runContextBench(options: RunOptions): Promise<ContextResults> {
  const contenders = options.contenders ?? CONTENDERS;
  const progress = options.progress ?? (() => {});
  const data = generateData(options.size);
  const issues = new IssueStore(data);
  const meter = new TokenMeter();
  const results: ContextResults = {
    benchmark: "context",
    dataSet: options.dataSet,
    data: {
      issues: options.size.issues,
      logLines: options.size.logLines,
      longFieldBytes: LONG_FIELD_BYTES,
      capBytes: CAP_BYTES,
    },
    catalogue: {},
    tasks: [],
  };
  const servers = { ...SERVERS, ...options.servers };
  for (const contender of contenders) {
    const session = await openSession(servers[contender], data, issues, meter);
    results.catalogue[contender] = {
      tools: session.agent.tools.length,
      tokens: await meter.count(JSON.stringify(session.agent.tools)),
    };
    await session.close();
  }
  const tasks = TASKS.filter((task) => !options.only || options.only.includes(task.id));
  for (const task of tasks) {
    const limitTokens = await meter.count(task.limit(data));
    const result: TaskResult = {
      id: task.id,
      kind: task.kind,
      question: task.question(data),
      limit: { tokens: limitTokens },
      contenders: {},
    };
    for (const contender of contenders) {
      const started = Date.now();
      const outcome = await runTask(
        task,
        contender,
        servers[contender],
        data,
        issues,
        meter,
        limitTokens,
        options.trace,
      );
      result.contenders[contender] = outcome;
      progress(
        `${task.id} · ${contender}: ${outcome.tokens} tokens, ${outcome.calls} calls, ` +
          `${outcome.correct ? "correct" : `WRONG${outcome.error ? ` (${outcome.error})` : ""}`} ` +
          `(${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    results.tasks.push(result);
  }
  return results;
}
