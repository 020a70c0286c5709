import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  CACHE,
  Cached,
  EVENT_BUS,
  type EventBus,
  InMemoryEventBus,
  Invalidates,
  LOGGER,
  type Logger,
  type McpApp,
  McpFactory,
  McpModule,
  McpService,
  RedisCache,
  RedisEventBus,
  Resource,
  Tool,
} from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ping } from "../support/own-redis.js";
import { deletePrefix, randomPrefix, redisAvailable } from "../support/services.js";

const prefix = randomPrefix("cache-redis");
const available = await redisAvailable();
const runs: Record<string, number> = {};
const bump = (key: string) => {
  runs[key] = (runs[key] ?? 0) + 1;
  return runs[key];
};

@McpService()
class PricesService {
  @Tool({ input: { sku: z.string() } })
  @Cached({
    ttl: 60_000,
    scope: "global",
    invalidateOn: [{ event: "price.changed", match: (i, p) => i.sku === p.sku }],
  })
  price({ sku }: { sku: string }) {
    return { sku, run: bump(sku) };
  }

  @Tool({ input: { sku: z.string() } })
  @Invalidates("price.changed")
  setPrice({ sku }: { sku: string }) {
    return { changed: sku };
  }

  @Resource("prices://{sku}")
  @Cached({ ttl: 60_000, invalidateOn: [{ event: "price.changed", match: (i, p) => i.sku === p.sku }] })
  priceResource({ sku }: { sku: string }) {
    return `${sku}:${bump(`resource:${sku}`)}`;
  }
}

@McpModule({ services: [PricesService] })
class PricesModule {}

async function instance(cache: RedisCache, bus: EventBus, logger?: Logger) {
  const app = await McpFactory.create(PricesModule, {
    name: "prices",
    version: "1",
    providers: [
      { provide: CACHE, useValue: cache },
      { provide: EVENT_BUS, useValue: bus },
      ...(logger ? [{ provide: LOGGER, useValue: logger }] : []),
    ],
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.connect(serverSide);
  const client = new Client({ name: "c", version: "1" });
  await client.connect(clientSide);
  return { app, client };
}

describe.skipIf(!available)("caching across instances with Redis", () => {
  let a: { app: McpApp; client: Client };
  let b: { app: McpApp; client: Client };
  beforeAll(async () => {
    const channel = `${prefix}events`;
    a = await instance(new RedisCache({ prefix }), new RedisEventBus({ channel }));
    b = await instance(new RedisCache({ prefix }), new RedisEventBus({ channel }));
  });
  afterAll(async () => {
    await a?.client.close();
    await b?.client.close();
    await a?.app.close();
    await b?.app.close();
    await deletePrefix(prefix);
  });

  const price = async (x: { client: Client }, sku: string) =>
    (await x.client.callTool({ name: "price", arguments: { sku } })).structuredContent as { run: number };

  it("shares entries between instances", async () => {
    expect((await price(a, "p1")).run).toBe(1);
    expect((await price(b, "p1")).run).toBe(1);
    expect(b.app.stats().cache.hits).toBe(1);
  });

  it("an invalidation on one instance drops the entry for all and reaches the other's subscribers", async () => {
    await price(a, "p2");
    await price(a, "p3");
    const updates: string[] = [];
    b.client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => void updates.push(n.params.uri),
    );
    await b.client.subscribeResource({ uri: "prices://p2" });
    await b.client.subscribeResource({ uri: "prices://p3" });
    await b.client.readResource({ uri: "prices://p2" });

    await a.client.callTool({ name: "set_price", arguments: { sku: "p2" } });
    await expect.poll(() => updates).toEqual(["prices://p2"]);
    expect((await price(b, "p2")).run).toBe(2);
    expect((await price(b, "p3")).run).toBe(1);
    const text = (await b.client.readResource({ uri: "prices://p2" })).contents[0] as { text: string };
    expect(text.text).toBe("p2:2");
  });
});

describe.skipIf(!available)("a dead Redis", () => {
  it("fails open: calls are served from the source, quickly, and the failure is logged", async () => {
    const errors: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn() {}, error: (m) => void errors.push(m) };
    const dead = await instance(
      new RedisCache({ url: "redis://127.0.0.1:1", prefix }),
      new RedisEventBus({ url: "redis://127.0.0.1:1", channel: `${prefix}dead` }),
      logger,
    );
    const started = performance.now();
    const first = await price(dead, "x");
    const second = await price(dead, "x");
    const elapsed = performance.now() - started;
    expect(first.run).toBeGreaterThan(0);
    expect(second.run).toBe(first.run + 1);
    expect(elapsed).toBeLessThan(2000);
    expect(dead.app.stats().cache.backendErrors).toBeGreaterThanOrEqual(2);
    expect(errors.some((m) => m.includes("serving from the source"))).toBe(true);
    await dead.client.close();
    await dead.app.close();
  });

  const price = async (x: { client: Client }, sku: string) =>
    (await x.client.callTool({ name: "price", arguments: { sku } })).structuredContent as { run: number };
});

describe.skipIf(!available)("Redis coming back", () => {
  it("resumes caching without a restart", async () => {
    const { spawn } = await import("node:child_process");
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const start = () =>
      spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        {
          stdio: "ignore",
        },
      );
    let server = start();
    const url = `redis://127.0.0.1:${port}`;
    const errors: string[] = [];
    const logger: Logger = { debug() {}, info() {}, warn() {}, error: (m) => void errors.push(m) };
    // The server process is outside the test: poll until it answers a PING.
    await vi.waitFor(() => ping(url), { timeout: 5_000, interval: 20 });
    // The bus stays in memory: this test is about the cache failing open and coming back. (A
    // RedisEventBus on the same server may notice the outage first and put the cache "in doubt",
    // so no cache call fails; test/reliability/redis-faults.test.ts covers the two together.)
    const x = await instance(new RedisCache({ url, prefix }), new InMemoryEventBus(), logger);
    const price = async (sku: string) =>
      ((await x.client.callTool({ name: "price", arguments: { sku } })).structuredContent as { run: number })
        .run;
    try {
      const first = await price("comeback");
      expect(await price("comeback")).toBe(first);
      const exited = once(server, "exit");
      server.kill("SIGKILL");
      await exited;
      expect(await price("down")).toBeGreaterThan(0);
      expect(x.app.stats().cache.backendErrors).toBeGreaterThan(0);
      server = start();
      // The client reconnects in the background; caching resumes once it has.
      await expect
        .poll(
          async () => {
            await price("after");
            return x.app.stats().cache.hits;
          },
          { timeout: 8000, interval: 200 },
        )
        .toBeGreaterThan(1);
    } finally {
      await x.client.close();
      await x.app.close();
      server.kill("SIGKILL");
    }
  });
});
