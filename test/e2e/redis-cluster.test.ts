/**
 * Redis Cluster (issue 14): the Redis providers on a three-node cluster this test starts
 * on loopback ports (`redis-server --cluster-enabled yes`, `redis-cli --cluster create`)
 * and tears down. Two apps share it: stored results, cache entries, quotas and
 * invalidations cross between them, every multi-key command and script stays on one slot
 * (a CROSSSLOT error would fail these calls), and keys spread over the three nodes.
 * Under CI=true a missing redis-server fails the file.
 *
 *   npx vitest run test/e2e/redis-cluster.test.ts
 */
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  CACHE,
  Cached,
  createTestClient,
  EVENT_BUS,
  Invalidates,
  McpModule,
  McpService,
  RedisCache,
  RedisEventBus,
  RedisStorage,
  Resource,
  STORAGE,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { VersionConflictError } from "../../src/storage/storage.js";
import { deferred } from "../support/gates.js";
import { redisServerInstalled } from "../support/own-redis.js";
import { OwnRedisCluster } from "../support/redis-cluster.js";
import { metaFor } from "../support/storage-contract.js";

const installed = redisServerInstalled();

let runs = 0;
let edition = 1;

@McpService()
class ClusterService {
  @Tool({ input: { n: z.number().int() } })
  @Cached({ ttl: 60_000, scope: "global" })
  cube({ n }: { n: number }) {
    runs++;
    return { cube: n ** 3, run: runs };
  }

  @Tool({ input: { name: z.string(), text: z.string() } })
  async publish({ name, text }: { name: string; text: string }, ctx: ToolContext) {
    return ctx.resources.create(text, { uri: `notes://${name}`, scope: "global", mimeType: "text/plain" });
  }

  @Tool({ input: { text: z.string() } })
  async keep({ text }: { text: string }, ctx: ToolContext) {
    return ctx.resources.create(text, { mimeType: "text/plain" });
  }

  @Resource("edition://current", { mimeType: "application/json" })
  @Cached({ ttl: 60_000, invalidateOn: ["edition.changed"] })
  current() {
    return { edition };
  }

  @Tool()
  @Invalidates("edition.changed")
  nextEdition() {
    edition++;
    return { edition };
  }
}

@McpModule({ services: [ClusterService] })
class ClusterModule {}

describe.skipIf(!installed)("the Redis providers on a three-node Redis Cluster", () => {
  let cluster: OwnRedisCluster;
  const prefix = `cluster-test:${Date.now()}:`;

  beforeAll(async () => {
    cluster = await OwnRedisCluster.start();
  }, 60_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  const providers = () => [
    { provide: STORAGE, useValue: new RedisStorage({ cluster: cluster.nodes, prefix: `${prefix}s:` }) },
    { provide: CACHE, useValue: new RedisCache({ cluster: cluster.nodes, prefix: `${prefix}c:` }) },
    {
      provide: EVENT_BUS,
      useValue: new RedisEventBus({ cluster: cluster.nodes, channel: `${prefix}events` }),
    },
  ];
  const appOptions = { ephemeral: { tools: true, maxBytesPerOwner: 4000 } };

  it("shares stored results, cache entries and invalidations between two apps", async () => {
    const a = await createTestClient(ClusterModule, { providers: providers(), ...appOptions });
    const b = await createTestClient(ClusterModule, { providers: providers(), ...appOptions });
    try {
      // Stored results: written by one app, found and read whole or in slices by the other.
      for (let i = 0; i < 12; i++) {
        const made = await a.callTool({
          name: "publish",
          arguments: { name: `n${i}`, text: `line ${i}\nend` },
        });
        expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
      }
      const read = await b.readResource({ uri: "notes://n7" });
      expect(read.contents[0]).toMatchObject({ text: "line 7\nend" });
      const slice = await b.callTool({ name: "read_resource", arguments: { uri: "notes://n3", offset: 1 } });
      expect(slice.structuredContent).toMatchObject({ lines: ["end"], version: 1 });
      const listed = (await b.listResources()).resources.map((r) => r.uri);
      expect(listed).toEqual(expect.arrayContaining(["notes://n0", "notes://n11"]));

      // Cache: computed once, a hit on the other app.
      const first = await a.callTool({ name: "cube", arguments: { n: 3 } });
      const second = await b.callTool({ name: "cube", arguments: { n: 3 } });
      expect(second.structuredContent).toEqual(first.structuredContent);
      expect(b.app.stats().cache.hits).toBe(1);
      expect(b.app.stats().cache.backendErrors).toBe(0);

      // Invalidation on one app reaches a subscriber of the other, over the cluster's pub/sub.
      const heard = deferred<string>();
      b.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => heard.resolve(n.params.uri));
      await b.readResource({ uri: "edition://current" });
      await b.subscribeResource({ uri: "edition://current" });
      await a.callTool({ name: "next_edition", arguments: {} });
      expect(await heard.promise).toBe("edition://current");

      // The keys really live on several nodes (hash tags group only what must be together).
      const perNode = await cluster.keysPerNode();
      expect(perNode.filter((count) => count > 0).length).toBeGreaterThanOrEqual(2);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("counts quotas with a script on one slot", async () => {
    const a = await createTestClient(ClusterModule, { providers: providers(), ...appOptions });
    try {
      expect((await a.callTool({ name: "keep", arguments: { text: "x".repeat(3000) } })).isError).toBeFalsy();
      const refused = await a.callTool({ name: "keep", arguments: { text: "y".repeat(3000) } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toMatch(/maxBytesPerOwner/);
    } finally {
      await a.close();
    }
  });

  it("refuses a write over a version another writer replaced (compare-and-set on one slot)", async () => {
    const one = new RedisStorage({ cluster: cluster.nodes, prefix: `${prefix}cas:` });
    const other = new RedisStorage({ cluster: cluster.nodes, prefix: `${prefix}cas:` });
    await Promise.all([one.ready(), other.ready()]);
    try {
      const v1 = metaFor("first");
      await one.put(v1.meta, v1.content, v1.index, 0);
      const fromOne = metaFor("from one", { id: v1.meta.id, version: 2 });
      const fromOther = metaFor("from other", { id: v1.meta.id, version: 2 });
      await one.put(fromOne.meta, fromOne.content, fromOne.index, 1);
      await expect(other.put(fromOther.meta, fromOther.content, fromOther.index, 1)).rejects.toBeInstanceOf(
        VersionConflictError,
      );
      expect((await other.stat(v1.meta.id))?.version).toBe(2);
      // A chunked write (several commands, then one commit script) is checked the same way.
      const chunked = new RedisStorage({ cluster: cluster.nodes, prefix: `${prefix}cas:`, chunkBytes: 1024 });
      await chunked.ready();
      const big = metaFor("z".repeat(5000), { id: v1.meta.id, version: 3 });
      await expect(chunked.put(big.meta, big.content, big.index, 1)).rejects.toBeInstanceOf(
        VersionConflictError,
      );
      await chunked.put(big.meta, big.content, big.index, 2);
      expect(Buffer.from(await one.read(v1.meta.id, 3, "content", 4990, 5010)).toString()).toBe(
        "z".repeat(10),
      );
      const owned: string[] = [];
      for await (const meta of one.listByOwner("session:a")) owned.push(meta.id);
      expect(owned).toEqual([v1.meta.id]);
      await chunked.close();
    } finally {
      await one.close();
      await other.close();
    }
  });

  it("takes an ioredis Cluster of the caller's own, and leaves it open on close", async () => {
    const client = new Cluster([...cluster.nodes], { lazyConnect: false });
    const storage = new RedisStorage({ client, prefix: `${prefix}adopted:` });
    const cache = new RedisCache({ client, prefix: `${prefix}adopted-c:` });
    const t = await createTestClient(ClusterModule, {
      providers: [
        { provide: STORAGE, useValue: storage },
        { provide: CACHE, useValue: cache },
      ],
      ...appOptions,
    });
    try {
      const made = await t.callTool({ name: "keep", arguments: { text: "adopted" } });
      expect(made.isError, JSON.stringify(made.content)).toBeFalsy();
      await t.callTool({ name: "cube", arguments: { n: 5 } });
      await t.callTool({ name: "cube", arguments: { n: 5 } });
      expect(t.app.stats().cache.hits).toBe(1);
    } finally {
      await t.close();
    }
    expect(await client.ping()).toBe("PONG");
    client.disconnect();
  });
});
