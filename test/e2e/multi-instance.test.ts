/**
 * Scale-out (issue 14): three app instances on loopback ports share one Redis (storage,
 * cache, event bus), and a client sends each call to the next instance, as a load
 * balancer without stickiness would. Owner-scoped state follows the principal (a bearer
 * token), so every instance serves the same owner.
 *
 *   npx vitest run test/e2e/multi-instance.test.ts
 */
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  Cached,
  Invalidates,
  McpModule,
  McpService,
  Paginated,
  Resource,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deferred } from "../support/gates.js";
import { Instances, type RoundRobinClient } from "../support/instances.js";
import { deletePrefix, randomPrefix, redisAvailable } from "../support/services.js";

const available = await redisAvailable();
const prefix = randomPrefix("multi-instance");

/** Runs of the cached handler, over all instances (they share this process). */
let squareRuns = 0;
let configVersion = 1;

@McpService()
class ScaleService {
  @Tool({ description: "Numbers 0 to 22, paged" })
  @Paginated(["n"], { limit: 5, maxLimit: 10 })
  numbers() {
    return Array.from({ length: 23 }, (_, n) => ({ n }));
  }

  @Tool({ input: { n: z.number().int() } })
  @Cached({ ttl: 60_000 })
  square({ n }: { n: number }) {
    squareRuns++;
    return { square: n * n, run: squareRuns };
  }

  @Tool({ input: { text: z.string() } })
  async save({ text }: { text: string }, ctx: ToolContext) {
    return ctx.resources.create(text, { name: "note", mimeType: "text/plain" });
  }

  @Tool({ input: { uri: z.string(), text: z.string() } })
  async rewrite({ uri, text }: { uri: string; text: string }, ctx: ToolContext) {
    return ctx.resources.update(uri, text);
  }

  @Tool({ input: { uri: z.string() } })
  async remove({ uri }: { uri: string }, ctx: ToolContext) {
    return { deleted: await ctx.resources.delete(uri) };
  }

  @Tool({ input: { uri: z.string() } })
  async peek({ uri }: { uri: string }, ctx: ToolContext) {
    const slice = await ctx.resources.read(uri);
    return { version: slice.version, lines: slice.lines };
  }

  @Resource("config://shared", { mimeType: "application/json" })
  @Cached({ ttl: 60_000, invalidateOn: ["config.changed"] })
  config() {
    return { version: configVersion };
  }

  @Tool()
  @Invalidates("config.changed")
  bumpConfig() {
    configVersion++;
    return { version: configVersion };
  }
}

@McpModule({ services: [ScaleService] })
class ScaleModule {}

type Structured<T> = { structuredContent?: T; isError?: boolean; content?: unknown };
const call = async <T>(client: RoundRobinClient, name: string, args: Record<string, unknown> = {}) =>
  (await client.next().callTool({ name, arguments: args })) as Structured<T>;
const ok = <T>(result: Structured<T>): T => {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as T;
};

describe.skipIf(!available)("three instances sharing one Redis, round robin", () => {
  let instances: Instances;
  let alice: RoundRobinClient;

  beforeAll(async () => {
    instances = await Instances.start(ScaleModule, {
      count: 3,
      prefix,
      appOptions: { ephemeral: { tools: true, maxBytesPerOwner: 10_000 } },
    });
    alice = await instances.connect("alice");
  });

  afterAll(async () => {
    await instances?.close();
    await deletePrefix(prefix);
  });

  it("walks every page of a list, each page from another instance", async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = ok(
        await call<{ items: Array<{ n: number }>; nextCursor: string | null }>(alice, "numbers", {
          ...(cursor ? { cursor } : {}),
        }),
      );
      seen.push(...page.items.map((item) => item.n));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(seen).toEqual(Array.from({ length: 23 }, (_, n) => n));
  });

  it("serves a cache hit on another instance", async () => {
    const first = ok(
      (await alice.on(0).callTool({ name: "square", arguments: { n: 12 } })) as Structured<{ run: number }>,
    );
    const second = ok(
      (await alice.on(1).callTool({ name: "square", arguments: { n: 12 } })) as Structured<{ run: number }>,
    );
    const third = ok(
      (await alice.on(2).callTool({ name: "square", arguments: { n: 12 } })) as Structured<{ run: number }>,
    );
    expect(second.run).toBe(first.run);
    expect(third.run).toBe(first.run);
    expect(instances.app(1).stats().cache.hits).toBeGreaterThan(0);
  });

  it("creates a stored result on one instance and reads, updates and deletes it on the others", async () => {
    const created = ok(await call<{ uri: string; version: number }>(alice, "save", { text: "one\ntwo" }));
    expect(created.version).toBe(1);
    const read = ok(await call<{ version: number; lines: string[] }>(alice, "peek", { uri: created.uri }));
    expect(read).toEqual({ version: 1, lines: ["one", "two"] });
    const listed = await alice.next().listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(created.uri);
    const updated = ok(
      await call<{ version: number }>(alice, "rewrite", { uri: created.uri, text: "three" }),
    );
    expect(updated.version).toBe(2);
    const reread = await alice.next().readResource({ uri: created.uri });
    expect(reread.contents[0]).toMatchObject({ text: "three" });
    expect(ok(await call<{ deleted: boolean }>(alice, "remove", { uri: created.uri }))).toEqual({
      deleted: true,
    });
    const gone = await alice.next().callTool({ name: "peek", arguments: { uri: created.uri } });
    expect(gone.isError).toBe(true);
    await expect(alice.next().readResource({ uri: created.uri })).rejects.toThrow(/not found|-32002/i);
  });

  it("keeps one principal's stored results from another principal on every instance", async () => {
    const bob = await instances.connect("bob");
    const created = ok(await call<{ uri: string }>(alice, "save", { text: "alice only" }));
    for (let i = 0; i < instances.count; i++) {
      const peek = await bob.on(i).callTool({ name: "peek", arguments: { uri: created.uri } });
      expect(peek.isError).toBe(true);
      const listed = await bob.on(i).listResources();
      expect(listed.resources.map((r) => r.uri)).not.toContain(created.uri);
    }
    await alice.next().callTool({ name: "remove", arguments: { uri: created.uri } });
  });

  describe("quotas counted in Redis", () => {
    afterEach(async () => {
      // Each test starts with nothing stored for its principal.
      for (const resource of (await alice.next().listResources()).resources) {
        await alice.next().callTool({ name: "remove", arguments: { uri: resource.uri } });
      }
    });

    it("holds the per-owner quota across instances, even after each instance has counted", async () => {
      const carol = await instances.connect("carol");
      // Every instance loads its count first (a per-instance ledger would now drift).
      for (let i = 0; i < instances.count; i++) {
        ok(
          (await carol
            .on(i)
            .callTool({ name: "save", arguments: { text: "x".repeat(1000) } })) as Structured<unknown>,
        );
      }
      // 3,000 bytes stored; 3 × 3,000 more would make 12,000 of a 10,000-byte quota.
      const results: Structured<unknown>[] = [];
      for (let i = 0; i < instances.count; i++) {
        results.push(
          (await carol
            .on(i)
            .callTool({ name: "save", arguments: { text: "y".repeat(3000) } })) as Structured<unknown>,
        );
      }
      expect(results.map((r) => r.isError === true)).toEqual([false, false, true]);
      expect(JSON.stringify(results[2]?.content)).toMatch(/maxBytesPerOwner/);
    });

    it("lets exactly as many concurrent writes through as fit, from three instances at once", async () => {
      const dave = await instances.connect("dave");
      const results = (await Promise.all(
        [0, 1, 2, 0, 1, 2].map((i) =>
          dave.on(i).callTool({ name: "save", arguments: { text: "z".repeat(3000) } }),
        ),
      )) as Structured<unknown>[];
      expect(results.filter((r) => r.isError !== true)).toHaveLength(3);
    });
  });

  it("serializes concurrent updates of one resource from two instances: no update is lost", async () => {
    const created = ok(await call<{ uri: string }>(alice, "save", { text: "v1" }));
    const updates = await Promise.all(
      Array.from({ length: 16 }, (_, k) =>
        alice.on(k % 2).callTool({ name: "rewrite", arguments: { uri: created.uri, text: `update ${k}` } }),
      ),
    );
    const versions = updates
      .map((r) => ok(r as Structured<{ version: number }>).version)
      .sort((a, b) => a - b);
    // Each update built on the one before it: versions 2 to 17, none twice.
    expect(versions).toEqual(Array.from({ length: 16 }, (_, k) => k + 2));
    const final = ok(await call<{ version: number; lines: string[] }>(alice, "peek", { uri: created.uri }));
    expect(final.version).toBe(17);
    // The content is the update that got the last version, whichever instance ran it.
    const last = updates.findIndex(
      (r) => (r as Structured<{ version: number }>).structuredContent?.version === 17,
    );
    expect(final.lines).toEqual([`update ${last}`]);
    await alice.next().callTool({ name: "remove", arguments: { uri: created.uri } });
  });

  it("notifies the subscribers on the other instances when one instance invalidates", async () => {
    const heard = [deferred<string>(), deferred<string>()];
    for (const [k, i] of [1, 2].entries()) {
      const client = alice.on(i);
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) =>
        heard[k]?.resolve(n.params.uri),
      );
      await client.readResource({ uri: "config://shared" });
      await client.subscribeResource({ uri: "config://shared" });
    }
    ok((await alice.on(0).callTool({ name: "bump_config", arguments: {} })) as Structured<unknown>);
    expect(await Promise.all(heard.map((h) => h.promise))).toEqual(["config://shared", "config://shared"]);
    const fresh = await alice.on(2).readResource({ uri: "config://shared" });
    expect(JSON.parse((fresh.contents[0] as { text: string }).text)).toEqual({ version: configVersion });
  });

  it("goes on with a walk after the instance that served its first page restarts", async () => {
    const first = ok(
      (await alice.on(0).callTool({ name: "numbers", arguments: { limit: 10 } })) as Structured<{
        nextCursor: string;
      }>,
    );
    await instances.restart(0);
    const again = await alice.reconnect(0);
    const second = ok(
      (await again.callTool({
        name: "numbers",
        arguments: { cursor: first.nextCursor, limit: 10 },
      })) as Structured<{
        items: Array<{ n: number }>;
      }>,
    );
    expect(second.items.map((item) => item.n)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });
});
