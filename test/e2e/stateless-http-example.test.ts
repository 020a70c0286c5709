/** examples/stateless-http: two instances behind a round-robin balancer, two principals. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CACHE, type McpApp, McpFactory, RedisCache } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ReportsModule } from "../../examples/stateless-http/app.module.js";
import { authenticate } from "../../examples/stateless-http/auth.js";
import { roundRobin } from "../support/round-robin.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";

const prefix = randomPrefix("stateless-example");
const available = await redisAvailable();

describe.runIf(available)("examples/stateless-http", () => {
  const apps: McpApp[] = [];
  const urls: string[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    process.env.REDIS_PREFIX = prefix;
    process.env.REDIS_URL = REDIS_URL;
    for (let i = 0; i < 2; i++) {
      const app = await McpFactory.create(ReportsModule, {
        name: "reports",
        version: "1.0.0",
        cursorSecret: "example-test-secret-of-enough-length",
        // A generous command timeout: on a loaded machine a timed-out cache read is a miss.
        providers: [
          {
            provide: CACHE,
            useValue: new RedisCache({ url: REDIS_URL, prefix: `${prefix}cache:`, commandTimeoutMs: 5000 }),
          },
        ],
      });
      apps.push(app);
      urls.push((await app.listen({ transport: "http", port: 0, stateless: true, authenticate })).url);
    }
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(apps.map((a) => a.close()));
    delete process.env.REDIS_PREFIX;
    await deletePrefix(prefix);
  });

  async function connect(token: string) {
    const client = new Client({ name: token, version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(urls[0] as string), {
        fetch: roundRobin(urls).fetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    clients.push(client);
    return client;
  }

  it("walks the sales pages, caches each dashboard per principal and keeps exports private", async () => {
    const alice = await connect("demo-alice");
    const bob = await connect("demo-bob");
    let cursor: string | undefined;
    const ids: number[] = [];
    do {
      const result = await alice.callTool({
        name: "sales",
        arguments: { year: 2026, ...(cursor ? { cursor } : {}) },
      });
      const page = result.structuredContent as { items: Array<{ id: number }>; nextCursor: string | null };
      ids.push(...page.items.map((row) => row.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));

    const first = (await alice.callTool({ name: "dashboard", arguments: {} })).structuredContent;
    const again = (await alice.callTool({ name: "dashboard", arguments: {} })).structuredContent;
    const bobs = (await bob.callTool({ name: "dashboard", arguments: {} })).structuredContent;
    expect(again).toEqual(first); // a hit, served by the other instance
    expect(bobs).toMatchObject({ principal: "bob" });

    const exported = await alice.callTool({ name: "export_sales", arguments: { year: 2026 } });
    const uri = (exported.structuredContent as { spilled: { uri: string } }).spilled.uri;
    const slice = (await alice.callTool({ name: "read_resource", arguments: { uri, limit: 3 } }))
      .structuredContent;
    expect(slice).toMatchObject({ total: 120 });
    await expect(bob.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
  });

  it("refuses requests without a demo token", async () => {
    const response = await fetch(urls[1] as string, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(401);
  });
});
