/**
 * What a stateless HTTP request costs next to a request on a session (`npm run build &&
 * node .build/bench/stateless-http.bench.js`).
 *
 * One app instance in this process serves Streamable HTTP on a loopback port three ways:
 * with sessions, stateless (a fresh SDK transport and server per POST, with
 * `authenticate`), and stateless with a `RedisEventStore` (each call also writes its
 * priming event, its answer and an end mark to Redis). Four clients each call a trivial
 * tool in a loop for 3 s after 1 s of warm-up. Reported: calls per second, p50 and p95.
 * On two shared cores the figures compare the modes; they are not a capacity estimate.
 */
import "reflect-metadata";
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type HttpHandlerOptions, McpFactory, McpModule, McpService, Tool } from "frugal-mcp";
import { z } from "zod";
import { RedisEventStore } from "../src/transports/redis-event-store.js";
import { quantile } from "./lib/measure.js";
import { deletePrefix, REDIS_URL } from "./lib/redis.js";
import { describeMachine, writeResults } from "./lib/report.js";

const CLIENTS = 4;
const WARMUP_MS = 1_000;
const MEASURE_MS = 3_000;

@McpService()
class EchoService {
  @Tool({ input: { text: z.string() } })
  echo({ text }: { text: string }) {
    return { text };
  }
}

@McpModule({ services: [EchoService] })
class EchoModule {}

/** Calls per second, p50 and p95 (ms) of `CLIENTS` clients calling `echo` in a loop. */
async function measure(options: HttpHandlerOptions) {
  const app = await McpFactory.create(EchoModule, { name: "bench", version: "1.0.0" });
  const { url } = await app.listen({ transport: "http", port: 0, ...options });
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new Client({ name: "bench", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: "Bearer bench" } },
        }),
      );
      return client;
    }),
  );
  const latencies: number[] = [];
  const loop = async (client: Client, until: number, record: boolean) => {
    while (Date.now() < until) {
      const started = performance.now();
      await client.callTool({ name: "echo", arguments: { text: "hello" } });
      if (record) latencies.push(performance.now() - started);
    }
  };
  await Promise.all(clients.map((c) => loop(c, Date.now() + WARMUP_MS, false)));
  await Promise.all(clients.map((c) => loop(c, Date.now() + MEASURE_MS, true)));
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
  return {
    callsPerSecond: Math.round(latencies.length / (MEASURE_MS / 1000)),
    p50Ms: Number(quantile(latencies, 0.5).toFixed(2)),
    p95Ms: Number(quantile(latencies, 0.95).toFixed(2)),
  };
}

const prefix = `frugal-bench:stateless:${randomBytes(6).toString("hex")}:`;
const eventStore = new RedisEventStore({ url: REDIS_URL, prefix });
const authenticate = () => "bench";
const results = {
  sessions: await measure({}),
  stateless: await measure({ stateless: true, authenticate }),
  statelessWithRedisEventStore: await measure({ stateless: true, authenticate, eventStore }),
};
await eventStore.close();
await deletePrefix(prefix);
console.log(describeMachine());
console.table(results);
writeResults("stateless-http", { clients: CLIENTS, measureMs: MEASURE_MS, results });
