import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  CACHE,
  Cached,
  CLOCK,
  createTestClient,
  EVENT_BUS,
  Invalidates,
  LruCache,
  ManualClock,
  McpModule,
  McpService,
  Paginated,
  Resource,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { deferred } from "../support/gates.js";

const calls: Record<string, number> = {};
const count = (name: string) => {
  calls[name] = (calls[name] ?? 0) + 1;
  return calls[name];
};
let gate: Promise<void> = Promise.resolve();
/** Resolved by `slow` when its source starts running (a test replaces it before a call). */
let slowStarted = deferred();
let failNext = false;

@McpService()
class ReportsService {
  @Tool({
    input: { site: z.string(), days: z.number().int().default(7), tags: z.array(z.string()).default([]) },
  })
  @Cached({ ttl: 60_000, invalidateOn: ["reports.changed"] })
  report(input: { site: string; days: number }) {
    return { site: input.site, days: input.days, run: count("report") };
  }

  @Cached({
    ttl: 60_000,
    invalidateOn: [{ event: "site.changed", match: (input, payload) => input.site === payload.site }],
  })
  @Tool({ input: { site: z.string() } })
  siteStats({ site }: { site: string }) {
    return { site, run: count(`stats:${site}`) };
  }

  @Tool({ input: { site: z.string() } })
  @Invalidates("site.changed", "reports.changed")
  updateSite({ site }: { site: string }) {
    return { updated: site };
  }

  @Tool({ input: { site: z.string() } })
  @Invalidates("site.changed")
  failingUpdate(_input: { site: string }) {
    throw new Error("write failed");
  }

  @Tool({ input: { key: z.string() } })
  @Cached({ ttl: 60_000, invalidateOn: ["slow.changed"] })
  async slow({ key }: { key: string }, ctx: ToolContext) {
    count("slow");
    slowStarted.resolve();
    await gate;
    if (failNext) {
      failNext = false;
      throw new Error("source unavailable");
    }
    return { key, aborted: ctx.signal.aborted };
  }

  @Tool()
  @Cached({ ttl: 60_000, scope: "global" })
  shared() {
    return { run: count("shared") };
  }

  @Tool({ input: { size: z.number().int() } })
  @Cached({ ttl: 60_000 })
  big({ size }: { size: number }) {
    count("big");
    return "x".repeat(size);
  }

  @Tool()
  @Paginated("n", { limit: 2 })
  @Cached({ ttl: 60_000 })
  numbers() {
    count("numbers");
    return [1, 2, 3, 4, 5].map((n) => ({ n }));
  }

  @Resource("config://app", { mimeType: "application/json" })
  @Cached({ ttl: 3_600_000, invalidateOn: ["config.changed"] })
  config() {
    return { theme: "dark", run: count("config") };
  }

  @Resource("reports://{site}")
  @Cached({
    ttl: 60_000,
    invalidateOn: [{ event: "site.changed", match: (input, payload) => input.site === payload.site }],
  })
  siteReport({ site }: { site: string }) {
    return `${site}: ${count(`site-report:${site}`)}`;
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

const structured = (result: unknown) =>
  (result as { structuredContent: Record<string, unknown> }).structuredContent;

describe("@Cached and @Invalidates", () => {
  let t: TestClient;
  let clock: ManualClock;
  const call = (name: string, args: Record<string, unknown> = {}) =>
    t.client.callTool({ name, arguments: args });
  /** Calls that have passed the cache lookup: served, started a miss, or joined a running one. */
  const lookedUp = () => {
    const { hits, misses, coalesced } = t.app.stats().cache;
    return hits + misses + coalesced;
  };

  beforeEach(async () => {
    for (const key of Object.keys(calls)) delete calls[key];
    clock = new ManualClock(Date.UTC(2026, 0, 1));
    t = await createTestClient(ReportsModule, {
      providers: [
        { provide: CLOCK, useValue: clock },
        { provide: CACHE, useValue: new LruCache({ maxBytes: 1_000_000, maxEntryBytes: 10_000 }) },
      ],
    });
  });
  afterEach(() => t.close());

  it("serves a hit; argument order and defaults do not change the key", async () => {
    const first = structured(await call("report", { site: "a", days: 7 }));
    const reordered = structured(
      await t.client.callTool({ name: "report", arguments: { days: 7, site: "a" } }),
    );
    const defaulted = structured(await call("report", { site: "a" }));
    expect(first).toEqual({ site: "a", days: 7, run: 1 });
    expect(reordered).toEqual(first);
    expect(defaulted).toEqual(first);
    expect(structured(await call("report", { site: "a", days: 8 })).run).toBe(2);
    expect(t.app.stats().cache).toMatchObject({ hits: 2, misses: 2 });
  });

  it("expires entries by the app's clock", async () => {
    await call("report", { site: "a" });
    clock.advance(59_999);
    expect(structured(await call("report", { site: "a" })).run).toBe(1);
    clock.advance(2);
    expect(structured(await call("report", { site: "a" })).run).toBe(2);
  });

  it("drops entries when @Invalidates emits after a success, before the response", async () => {
    await call("report", { site: "a" });
    await call("update_site", { site: "a" });
    expect(structured(await call("report", { site: "a" })).run).toBe(2);
  });

  it("drops only entries whose input matches the event payload", async () => {
    await call("site_stats", { site: "a" });
    await call("site_stats", { site: "b" });
    await t.app.get(EVENT_BUS).emit("site.changed", { site: "a" });
    expect(structured(await call("site_stats", { site: "a" })).run).toBe(2);
    expect(structured(await call("site_stats", { site: "b" })).run).toBe(1);
  });

  it("does not emit when the method fails", async () => {
    await call("site_stats", { site: "a" });
    const failed = await call("failing_update", { site: "a" });
    expect(failed.isError).toBe(true);
    expect(structured(await call("site_stats", { site: "a" })).run).toBe(1);
  });

  it("keeps owner-scoped entries apart and shares global ones", async () => {
    const other = await t.connect();
    await call("report", { site: "a" });
    const theirs = structured(await other.callTool({ name: "report", arguments: { site: "a" } }));
    expect(theirs.run).toBe(2);
    await call("shared");
    expect(structured(await other.callTool({ name: "shared", arguments: {} })).run).toBe(1);
  });

  it("runs the handler once for 100 concurrent identical calls", async () => {
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    const pending = Array.from({ length: 100 }, () => call("slow", { key: "k" }));
    await vi.waitFor(() => expect(lookedUp()).toBe(100), { timeout: 5_000 });
    open();
    const results = await Promise.all(pending);
    expect(calls.slow).toBe(1);
    expect(new Set(results.map((r) => JSON.stringify(r.structuredContent))).size).toBe(1);
    expect(t.app.stats().cache).toMatchObject({ misses: 1, coalesced: 99 });
  });

  it("gives every waiter the error of a failed miss, caches nothing, and retries next time", async () => {
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    failNext = true;
    const pending = Array.from({ length: 5 }, () => call("slow", { key: "f" }));
    await vi.waitFor(() => expect(lookedUp()).toBe(5), { timeout: 5_000 });
    open();
    for (const result of await Promise.all(pending)) {
      expect(result).toEqual({ content: [{ type: "text", text: "source unavailable" }], isError: true });
    }
    expect(calls.slow).toBe(1);
    expect((await call("slow", { key: "f" })).isError).toBeFalsy();
    expect(calls.slow).toBe(2);
  });

  it("keeps a result out of the cache when an invalidation arrives during the miss", async () => {
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    slowStarted = deferred();
    const pending = call("slow", { key: "s" });
    await slowStarted.promise;
    await t.app.get(EVENT_BUS).emit("slow.changed");
    open();
    await pending;
    gate = Promise.resolve();
    await call("slow", { key: "s" });
    expect(calls.slow).toBe(2);
    expect(t.app.stats().cache.staleDiscards).toBe(1);
  });

  it("does not cancel the shared miss when one waiter cancels", async () => {
    let open!: () => void;
    gate = new Promise((resolve) => {
      open = resolve;
    });
    slowStarted = deferred();
    const controller = new AbortController();
    const first = t.client.callTool({ name: "slow", arguments: { key: "c" } }, undefined, {
      signal: controller.signal,
    });
    await slowStarted.promise;
    const second = call("slow", { key: "c" });
    await vi.waitFor(() => expect(lookedUp()).toBe(2), { timeout: 5_000 });
    controller.abort();
    await expect(first).rejects.toThrow();
    open();
    expect(structured(await second)).toEqual({ key: "c", aborted: false });
  });

  it("returns but does not store an entry above the per-entry cap", async () => {
    expect((await call("big", { size: 50_000 })).content).toHaveLength(1);
    await call("big", { size: 50_000 });
    expect(calls.big).toBe(2);
    await call("big", { size: 100 });
    await call("big", { size: 100 });
    expect(calls.big).toBe(3);
  });

  it("caches each page of a paginated tool under its own key", async () => {
    const first = structured(await call("numbers"));
    const second = structured(await call("numbers", { cursor: first.nextCursor }));
    expect(second.items).toEqual([{ n: 3 }, { n: 4 }]);
    expect(structured(await call("numbers", { cursor: first.nextCursor }))).toEqual(second);
    expect(calls.numbers).toBe(2);
  });

  it("caches resources globally and notifies subscribers of the right URI on invalidation", async () => {
    const other = await t.connect();
    const read = async (client: typeof other, uri: string) =>
      ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    await read(t.client, "config://app");
    expect(JSON.parse(await read(other, "config://app")).run).toBe(1);

    const mine: string[] = [];
    const theirs: string[] = [];
    t.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void mine.push(n.params.uri));
    other.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void theirs.push(n.params.uri));
    await t.client.subscribeResource({ uri: "config://app" });
    await t.client.subscribeResource({ uri: "reports://a" });
    await other.subscribeResource({ uri: "reports://b" });
    await read(t.client, "reports://a");
    await read(t.client, "reports://b");

    await call("update_site", { site: "a" });
    await t.app.get(EVENT_BUS).emit("config.changed");
    await expect.poll(() => mine.sort()).toEqual(["config://app", "reports://a"]);
    expect(theirs).toEqual([]);
    expect(JSON.parse(await read(t.client, "config://app")).run).toBe(2);
    expect(await read(t.client, "reports://a")).toBe("a: 2");
    expect(await read(t.client, "reports://b")).toBe("b: 1");
  });
});
