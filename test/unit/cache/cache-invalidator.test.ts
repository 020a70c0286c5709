import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { Registry } from "../../../src/builder/registry.js";
import { CacheInvalidator, type ResourceNotifier } from "../../../src/cache/cache-invalidator.js";
import { Cached } from "../../../src/cache/cached.capability.js";
import { LruCache } from "../../../src/cache/lru-cache.js";
import type { EntryMatcher } from "../../../src/cache/result-cache.js";
import { SingleFlight } from "../../../src/cache/single-flight.js";
import { McpService } from "../../../src/decorators/mcp-service.decorator.js";
import { Resource } from "../../../src/decorators/resource.decorator.js";
import type { DeliveryChange, EventBus } from "../../../src/events/event-bus.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";
import { AppMetrics } from "../../../src/metrics/app-metrics.js";
import { Paginated } from "../../../src/pagination/paginated.capability.js";
import type { OperationDefinition } from "../../../src/pipeline/operation.js";
import { UriTemplate } from "../../../src/uri/uri-template.js";
import { buildServices } from "../../support/unit-build.js";

/** An LruCache whose backend can be taken down: invalidations then fail, as Redis's would. */
class FlakyCache extends LruCache {
  down = false;
  override async invalidate(namespace: string, match?: EntryMatcher): Promise<number> {
    if (this.down) throw new Error("cache backend down");
    return super.invalidate(namespace, match);
  }
}

/** A bus whose delivery changes the test announces, over a real in-memory bus. */
class WatchedBus extends InMemoryEventBus implements EventBus {
  private readonly watchers = new Set<(change: DeliveryChange) => void>();
  onDeliveryChange(listener: (change: DeliveryChange) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }
  announce(change: DeliveryChange): void {
    for (const watcher of this.watchers) watcher(change);
  }
}

const definitions = {
  orders: {
    kind: "tool",
    where: "Orders.list",
    capabilities: new Map([[Cached.capability, { invalidateOn: ["orders.changed"] }]]),
  },
  config: {
    kind: "resource",
    where: "Config.read",
    uri: "config://app",
    capabilities: new Map([[Cached.capability, { invalidateOn: ["config.changed"] }]]),
  },
  article: {
    kind: "resource",
    where: "Articles.read",
    template: new UriTemplate("articles://{id}"),
    addedInputs: [],
    inputSchema: z.object({ id: z.coerce.number() }),
    capabilities: new Map([
      [
        Cached.capability,
        {
          invalidateOn: [
            {
              event: "article.changed",
              match: (input: { id: number }, payload: { id: number | "boom" }) => {
                if (payload.id === "boom") throw new Error("matcher broke");
                return input.id === payload.id;
              },
            },
          ],
        },
      ],
    ]),
  },
  uncached: { kind: "tool", where: "Plain.run", capabilities: new Map() },
} as unknown as Record<string, OperationDefinition>;

const op = (definition: OperationDefinition | undefined) => ({ definition, execute: async () => undefined });
const registry = {
  tools: new Map([
    ["orders", op(definitions.orders)],
    ["plain", op(definitions.uncached)],
  ]),
  staticResources: new Map([["config://app", op(definitions.config)]]),
  templates: [op(definitions.article)],
  prompts: new Map(),
} as unknown as Registry;

function setup() {
  const cache = new FlakyCache();
  const flights = new SingleFlight();
  const metrics = new AppMetrics();
  const logged: string[] = [];
  const logger = {
    debug() {},
    info: (m: string) => void logged.push(`info: ${m}`),
    warn: (m: string) => void logged.push(`warn: ${m}`),
    error: (m: string) => void logged.push(`error: ${m}`),
  };
  const invalidator = new CacheInvalidator(registry, cache, flights, metrics, logger);
  const notified: string[] = [];
  const notifier: ResourceNotifier = {
    subscribedUris: () => ["articles://1", "articles://2", "config://app", "other://x"],
    notifyResourceUpdated: async (uri) => void notified.push(uri),
  };
  invalidator.attach(notifier);
  const bus = new WatchedBus();
  invalidator.start(bus);
  const put = (key: string, namespace: string, input: unknown) =>
    cache.set(key, { namespace, input, value: key, expiresAt: Number.MAX_SAFE_INTEGER }, 60_000);
  return { cache, flights, metrics, logged, invalidator, notified, bus, put };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("CacheInvalidator", () => {
  it("drops a namespace's entries on its event, and marks its running misses stale", async () => {
    const { cache, flights, bus, put, invalidator } = setup();
    expect(invalidator.hasRules).toBe(true);
    await put("o1", "Orders.list", { page: 1 });
    await put("c1", "Config.read", {});
    const running = flights.start("o2", "Orders.list", { page: 2 }, new AbortController().signal);
    await bus.emit("orders.changed");
    expect(await cache.get("o1")).toBeUndefined();
    expect(await cache.get("c1")).toBeDefined();
    expect(running.stale).toBe(true);
  });

  it("drops only the template entries its matcher picks, and notifies the subscribers of those URIs", async () => {
    const { cache, bus, put, notified } = setup();
    await put("a1", "Articles.read", { id: 1 });
    await put("a2", "Articles.read", { id: 2 });
    await bus.emit("article.changed", { id: 2 });
    expect(await cache.get("a1")).toBeDefined();
    expect(await cache.get("a2")).toBeUndefined();
    expect(notified).toEqual(["articles://2"]);
    await bus.emit("config.changed");
    expect(notified).toEqual(["articles://2", "config://app"]);
  });

  it("drops the entry when a matcher throws, and says so", async () => {
    const { cache, bus, put, logged } = setup();
    await put("a1", "Articles.read", { id: 1 });
    await bus.emit("article.changed", { id: "boom" });
    expect(await cache.get("a1")).toBeUndefined();
    expect(logged).toContain(
      'warn: invalidateOn matcher of Articles.read threw on "article.changed"; dropping the entry',
    );
  });

  it("puts a namespace in doubt when the cache fails, and drops it whole, backing off, once the cache answers", async () => {
    const { cache, bus, put, invalidator, metrics } = setup();
    await put("o1", "Orders.list", { page: 1 });
    cache.down = true;
    await bus.emit("orders.changed");
    expect(invalidator.trust.trusts("Orders.list")).toBe(false);
    expect(metrics.cacheBackendErrors).toBe(1);
    await vi.advanceTimersByTimeAsync(100); // first retry: still down
    expect(metrics.cacheBackendErrors).toBe(2);
    cache.down = false;
    await vi.advanceTimersByTimeAsync(100); // the next retry waits twice as long
    expect(invalidator.trust.trusts("Orders.list")).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(invalidator.trust.trusts("Orders.list")).toBe(true);
    expect(await cache.get("o1")).toBeUndefined();
  });

  it("holds what events can invalidate while the bus is interrupted, then drops it all when it is back", async () => {
    const { cache, bus, put, invalidator, notified } = setup();
    await put("o1", "Orders.list", {});
    await put("a1", "Articles.read", { id: 1 });
    bus.announce("interrupted");
    expect(["Orders.list", "Config.read", "Articles.read"].map((n) => invalidator.trust.trusts(n))).toEqual([
      false,
      false,
      false,
    ]);
    expect(invalidator.trust.trusts("Plain.run")).toBe(true);
    expect(await cache.get("o1")).toBeDefined(); // held, not dropped
    bus.announce("restored");
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get("o1")).toBeUndefined();
    expect(await cache.get("a1")).toBeUndefined();
    expect(invalidator.trust.inDoubt).toBe(0);
    expect(invalidator.trust.trusts("Orders.list")).toBe(true);
    // Subscribers of a resource dropped whole may have missed its update: all are told.
    expect(notified.sort()).toEqual(["articles://1", "articles://2", "config://app"]);
  });

  it("drops whole what an event that failed to go out would have invalidated", async () => {
    const { cache, put, invalidator, logged } = setup();
    await put("c1", "Config.read", {});
    invalidator.undelivered("config.changed");
    invalidator.undelivered("unknown.event");
    expect(invalidator.trust.trusts("Config.read")).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(await cache.get("c1")).toBeUndefined();
    expect(invalidator.trust.trusts("Config.read")).toBe(true);
    expect(logged.filter((m) => m.startsWith("warn"))).toEqual([
      'warn: "config.changed" may not have been delivered; dropping what it invalidates (Config.read)',
    ]);
  });

  it("stops listening once stopped", async () => {
    const { cache, bus, put, invalidator } = setup();
    await put("o1", "Orders.list", {});
    invalidator.stop();
    await bus.emit("orders.changed");
    expect(await cache.get("o1")).toBeDefined();
  });
});

describe("CacheInvalidator on a template whose capabilities add inputs", () => {
  @McpService()
  class Feed {
    @Resource("feed://{site}")
    @Paginated("n", { limit: 2 })
    @Cached({
      ttl: 60_000,
      // The input as the cache keys it: the site alone, the page's `cursor` and `limit` taken out.
      invalidateOn: [
        { event: "feed.changed", match: (input, payload) => equalJson(input, { site: payload.site }) },
      ],
    })
    read(_input: { site: string }) {
      return [];
    }
  }
  const equalJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

  it("matches a subscribed page's URI by the resource's own input, without the added ones", async () => {
    const registry = buildServices([Feed]);
    expect(registry.templates[0]?.definition.addedInputs).toEqual(["cursor", "limit"]);
    const invalidator = new CacheInvalidator(registry, new LruCache(), new SingleFlight(), new AppMetrics(), {
      debug() {},
      info() {},
      warn() {},
      error() {},
    });
    const notified: string[] = [];
    invalidator.attach({
      subscribedUris: () => ["feed://a?cursor=abc&limit=2", "feed://a", "feed://b?limit=5"],
      notifyResourceUpdated: async (uri) => void notified.push(uri),
    });
    const bus = new InMemoryEventBus();
    invalidator.start(bus);
    await bus.emit("feed.changed", { site: "a" });
    await vi.advanceTimersByTimeAsync(0);
    expect(notified.sort()).toEqual(["feed://a", "feed://a?cursor=abc&limit=2"]);
  });
});
