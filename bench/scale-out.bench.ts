/**
 * Throughput of 1, 2 and 3 app instances sharing one Redis (`npm run build && node
 * .build/bench/scale-out.bench.js`).
 *
 * Each instance is a process of its own (this file run with `--instance`), serving
 * Streamable HTTP on a loopback port with `RedisStorage`, `RedisCache` and `RedisEventBus`
 * under one random prefix and one cursor secret. The driver opens 12 sessions of one
 * principal (bearer token), spread over the instances, and each session calls in a loop
 * for 8 s (after 3 s of warm-up, which also loads each instance's tokenizer) a mix of: a cached tool over 50 inputs (40 %), the next
 * page of a paginated walk whose cursor came from whichever instance served the last page
 * (30 %), a slice of a stored result created at the start (20 %), and a new stored
 * result (10 %). Reported: calls per second, p50 and p95 latency, and errors (must be 0).
 *
 * On a machine with two cores the figure shows that sharing is correct and what it
 * costs, not speed-up: the instances and the driver share the same cores and Redis.
 * Keys use a random prefix and are deleted at the end with SCAN (never FLUSH*).
 */
import "reflect-metadata";
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import {
  CACHE,
  Cached,
  EVENT_BUS,
  McpFactory,
  McpModule,
  McpService,
  Paginated,
  RedisCache,
  RedisEventBus,
  RedisStorage,
  STORAGE,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { z } from "zod";
import { quantile } from "./lib/measure.js";
import { deletePrefix, REDIS_URL, redisVersion } from "./lib/redis.js";
import { describeMachine, writeResults } from "./lib/report.js";

const SESSIONS = 12;
const WARMUP_MS = 3_000;
const MEASURE_MS = 8_000;
const SECRET = "scale-out-bench-cursor-secret-0123456789";

@McpService()
class BenchService {
  @Tool({ input: { n: z.number().int() } })
  @Cached({ ttl: 60_000 })
  square({ n }: { n: number }) {
    return { n, square: n * n };
  }

  @Tool()
  @Paginated(["id"], { limit: 10, maxLimit: 50 })
  items() {
    return Array.from({ length: 200 }, (_, id) => ({ id, label: `item ${id}` }));
  }

  @Tool({ input: { rows: z.number().int().max(500) } })
  async save({ rows }: { rows: number }, ctx: ToolContext) {
    const data = Array.from({ length: rows }, (_, i) => ({ i, text: `row ${i}` }));
    return ctx.resources.create(data, { ttl: 120_000 });
  }
}

@McpModule({ services: [BenchService] })
class BenchModule {}

/** One instance: serves HTTP on a free port and prints its URL. */
async function serveInstance(prefix: string): Promise<void> {
  const app = await McpFactory.create(BenchModule, {
    name: "scale-out-bench",
    version: "1.0.0",
    cursorSecret: SECRET,
    ephemeral: { tools: true, maxBytesPerOwner: 1024 * 1024 * 1024 },
    providers: [
      { provide: STORAGE, useValue: new RedisStorage({ prefix: `${prefix}s:` }) },
      { provide: CACHE, useValue: new RedisCache({ prefix: `${prefix}c:` }) },
      { provide: EVENT_BUS, useValue: new RedisEventBus({ channel: `${prefix}events` }) },
    ],
  });
  const handler = app.httpHandler({ maxSessions: 1000 });
  const server = createServer((req: IncomingMessage & { auth?: AuthInfo }, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (token) req.auth = { token, clientId: token, scopes: [] };
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  console.log(JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }));
  process.on("SIGTERM", () => {
    void app.close().finally(() => process.exit(0));
  });
}

/** Starts an instance process; resolves with its URL. */
function startInstance(prefix: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "--instance", prefix], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`an instance exited with ${code} before it listened`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", (line) =>
      resolve({ child, url: (JSON.parse(line) as { url: string }).url }),
    );
  });
}

async function stopInstance(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

interface Figures {
  instances: number;
  callsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  calls: number;
  errors: number;
}

/** What a call answered, as far as the driver looks. */
interface Answer {
  isError?: boolean;
  structuredContent?: unknown;
}

function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  return client.callTool({ name, arguments: args }) as Promise<Answer>;
}

/** One session's loop of mixed calls; records latencies once `measuring()` is true. */
async function drive(
  client: Client,
  until: number,
  measuring: () => boolean,
  latencies: number[],
  errors: { count: number },
): Promise<void> {
  const stored = (await callTool(client, "save", { rows: 300 })).structuredContent as { uri: string };
  let cursor: string | undefined;
  let step = 0;
  while (Date.now() < until) {
    const pick = step++ % 10;
    const started = performance.now();
    let result: Answer;
    if (pick < 4) {
      result = await callTool(client, "square", { n: step % 50 });
    } else if (pick < 7) {
      // The cursor came from whichever instance served the page before: any instance goes on.
      result = await callTool(client, "items", cursor ? { cursor } : {});
      cursor =
        (result.structuredContent as { nextCursor?: string | null } | undefined)?.nextCursor ?? undefined;
    } else if (pick < 9) {
      result = await callTool(client, "read_resource", {
        uri: stored.uri,
        offset: (step * 7) % 250,
        limit: 20,
      });
    } else {
      result = await callTool(client, "save", { rows: 20 });
    }
    if (result.isError) errors.count++;
    if (measuring()) latencies.push(performance.now() - started);
  }
}

async function measure(count: number): Promise<Figures> {
  const prefix = `frugal-bench:scale-out:${randomBytes(6).toString("hex")}:`;
  const instances = await Promise.all(Array.from({ length: count }, () => startInstance(prefix)));
  const clients: Client[] = [];
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const client = new Client({ name: "scale-out-bench", version: "0.0.0" });
      const url = (instances[i % count] as { url: string }).url;
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: "Bearer bench-principal" } },
        }),
      );
      clients.push(client);
    }
    const start = Date.now();
    const measureFrom = start + WARMUP_MS;
    const until = measureFrom + MEASURE_MS;
    const latencies: number[] = [];
    const errors = { count: 0 };
    await Promise.all(
      clients.map((client) => drive(client, until, () => Date.now() >= measureFrom, latencies, errors)),
    );
    const seconds = MEASURE_MS / 1000;
    return {
      instances: count,
      callsPerSecond: Math.round(latencies.length / seconds),
      p50Ms: round(quantile(latencies, 0.5)),
      p95Ms: round(quantile(latencies, 0.95)),
      calls: latencies.length,
      errors: errors.count,
    };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.all(instances.map(({ child }) => stopInstance(child)));
    await deletePrefix(prefix);
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

async function main(): Promise<void> {
  const version = await redisVersion();
  if (!version) {
    console.log(`skipped: no Redis at ${REDIS_URL}`);
    return;
  }
  const figures: Figures[] = [];
  for (const count of [1, 2, 3]) figures.push(await measure(count));
  console.log(
    `${describeMachine()}; Redis ${version}; ${SESSIONS} sessions, mixed calls, ${MEASURE_MS / 1000} s each\n`,
  );
  console.log("| instances | calls/s | p50 ms | p95 ms | calls | errors |");
  console.log("|---:|---:|---:|---:|---:|---:|");
  for (const f of figures) {
    console.log(
      `| ${f.instances} | ${f.callsPerSecond} | ${f.p50Ms} | ${f.p95Ms} | ${f.calls} | ${f.errors} |`,
    );
  }
  writeResults("scale-out", { redis: version, sessions: SESSIONS, measureMs: MEASURE_MS, figures });
  if (figures.some((f) => f.errors > 0)) process.exitCode = 1;
}

const instanceAt = process.argv.indexOf("--instance");
if (instanceAt >= 0) await serveInstance(process.argv[instanceAt + 1] as string);
else await main();
