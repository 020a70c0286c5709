/**
 * What sharing 2025-11-25 sessions through Redis adds to each request (`npm run
 * bench:shared-sessions`, i.e. `npm run build && node .build/bench/shared-sessions.bench.js`).
 *
 * Three app instances in this process serve Streamable HTTP on loopback ports, two ways:
 * - sticky: sessions in memory (`MemorySessionStore`, the default), each client kept on
 *   one instance, as a load balancer with sticky hashing would;
 * - shared: sessions in Redis (`RedisSessionStore`), each request of one session sent to
 *   the next instance (round robin, no stickiness): every request reads the session's
 *   record (one script), and a request landing on an instance that holds no copy yet
 *   rebuilds the session there first (only the first time).
 * One client per mode calls a trivial tool sequentially; the modes alternate in rounds so
 * load drift hits both alike. Reported: p50 and p99 of a call, and the difference. On two
 * shared cores, the difference (not the absolute figures) is what the numbers mean.
 * Keys use a random prefix and are deleted at the end with SCAN (never FLUSH*).
 */
import "reflect-metadata";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  RedisSessionStore,
  SESSION_STORE,
  Tool,
} from "frugal-mcp";
import { z } from "zod";
import { quantile } from "./lib/measure.js";
import { deletePrefix, REDIS_URL, redisVersion } from "./lib/redis.js";
import { describeMachine, writeResults } from "./lib/report.js";

const INSTANCES = 3;
const WARMUP_CALLS = 200;
const ROUNDS = 20;
const CALLS_PER_ROUND = 100;

@McpService()
class EchoService {
  @Tool({ input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return { text };
  }
}

@McpModule({ services: [EchoService] })
class EchoModule {}

interface Running {
  app: McpApp;
  server: Server;
  url: string;
}

async function start(shared: boolean, prefix: string): Promise<Running[]> {
  const running: Running[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const app = await McpFactory.create(EchoModule, {
      name: "bench",
      version: "1.0.0",
      providers: shared
        ? [{ provide: SESSION_STORE, useValue: new RedisSessionStore({ url: REDIS_URL, prefix }) }]
        : [],
    });
    const handler = app.httpHandler();
    const server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    running.push({ app, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` });
  }
  return running;
}

/** A client of one session: on instance 0 only (sticky), or each request to the next instance. */
async function connect(running: Running[], roundRobin: boolean): Promise<Client> {
  let turn = 0;
  const fetchNext: typeof fetch = (input, init) => {
    const target = new URL((running[turn++ % running.length] as Running).url);
    const url = new URL(input instanceof Request ? input.url : String(input));
    url.host = target.host;
    return fetch(url, init);
  };
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(
      new URL((running[0] as Running).url),
      roundRobin ? { fetch: fetchNext } : {},
    ),
  );
  return client;
}

async function stop(running: Running[]): Promise<void> {
  for (const { app, server } of running) {
    await app.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function timeCalls(client: Client, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await client.callTool({ name: "echo", arguments: { text: "x" } });
    into.push(performance.now() - started);
  }
}

async function main(): Promise<void> {
  const prefix = `bench:shared-sessions:${randomBytes(4).toString("hex")}:`;
  const sticky = await start(false, prefix);
  const shared = await start(true, prefix);
  const stickyClient = await connect(sticky, false);
  const sharedClient = await connect(shared, true);
  const samples = { sticky: [] as number[], shared: [] as number[] };
  try {
    await timeCalls(stickyClient, WARMUP_CALLS, []);
    await timeCalls(sharedClient, WARMUP_CALLS, []);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (["sticky", "shared"] as const) : (["shared", "sticky"] as const);
      for (const mode of order)
        await timeCalls(mode === "sticky" ? stickyClient : sharedClient, CALLS_PER_ROUND, samples[mode]);
    }
  } finally {
    await stickyClient.close();
    await sharedClient.close();
    await stop(sticky);
    await stop(shared);
    await deletePrefix(prefix);
  }
  const figure = (values: number[]) => ({
    p50: Number(quantile(values, 0.5).toFixed(2)),
    p99: Number(quantile(values, 0.99).toFixed(2)),
  });
  const results = {
    machine: describeMachine(),
    redis: await redisVersion(),
    calls: ROUNDS * CALLS_PER_ROUND,
    sticky: figure(samples.sticky),
    shared: figure(samples.shared),
  };
  const added = {
    p50: Number((results.shared.p50 - results.sticky.p50).toFixed(2)),
    p99: Number((results.shared.p99 - results.sticky.p99).toFixed(2)),
  };
  writeResults("shared-sessions", { ...results, added });
  console.log(`${results.machine}, Redis ${results.redis ?? "?"}, ${results.calls} calls per mode`);
  console.log("| sessions                           | p50 ms | p99 ms |");
  console.log("| ---------------------------------- | -----: | -----: |");
  console.log(`| sticky, in memory                  | ${results.sticky.p50} | ${results.sticky.p99} |`);
  console.log(`| shared in Redis, round robin       | ${results.shared.p50} | ${results.shared.p99} |`);
  console.log(`| added by the shared store          | ${added.p50} | ${added.p99} |`);
}

await main();
