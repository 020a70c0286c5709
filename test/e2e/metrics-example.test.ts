import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CACHE, CLOCK, createTestClient, EVENT_BUS, ManualClock, type TestClient } from "frugal-mcp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MetricsModule } from "../../examples/metrics/app.module.js";
import { cacheBackend } from "../../examples/metrics/cache-backend.js";
import { MetricsStore } from "../../examples/metrics/metrics.store.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";

type Structured = Record<string, unknown> & { metrics: Record<string, { count: number; sum: number }> };
const structured = (result: unknown) => (result as { structuredContent: Structured }).structuredContent;

describe("examples/metrics: cache tiers", () => {
  let t: TestClient;
  let clock: ManualClock;
  let store: MetricsStore;
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await t.client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    return structured(result);
  };

  beforeEach(async () => {
    clock = new ManualClock(Date.UTC(2026, 2, 10, 12));
    t = await createTestClient(MetricsModule, {
      // In memory whatever REDIS_URL says, so runs never share entries.
      providers: [{ provide: CLOCK, useValue: clock }, ...cacheBackend({})],
    });
    store = t.app.get(MetricsStore);
  });
  afterEach(() => t.close());

  it("caches daily_report per day; record_metric drops only the day it wrote to", async () => {
    const first = await call("daily_report", { day: "2026-03-09" });
    await call("daily_report", { day: "2026-03-08" });
    expect(await call("daily_report", { day: "2026-03-09" })).toEqual(first);
    expect(store.queries.dailyReport).toBe(2);

    await call("record_metric", { day: "2026-03-09", name: "errors", value: 1000 });
    const after = await call("daily_report", { day: "2026-03-09" });
    expect(store.queries.dailyReport).toBe(3);
    expect(after.metrics.errors?.count).toBe((first.metrics.errors?.count ?? 0) + 1);
    expect(after.metrics.errors?.sum).toBe((first.metrics.errors?.sum ?? 0) + 1000);

    await call("daily_report", { day: "2026-03-08" });
    expect(store.queries.dailyReport).toBe(3);
    // Still cached for 15 minutes of the app's clock, then recomputed.
    clock.advance(15 * 60_000 - 1);
    await call("daily_report", { day: "2026-03-08" });
    expect(store.queries.dailyReport).toBe(3);
    clock.advance(2);
    await call("daily_report", { day: "2026-03-08" });
    expect(store.queries.dailyReport).toBe(4);
  });

  it("does not invalidate on a failed write", async () => {
    await call("daily_report", { day: "2026-03-09" });
    const refused = await t.client.callTool({
      name: "record_metric",
      arguments: { day: "2026-03-09", name: "nope", value: 1 },
    });
    expect(refused.isError).toBe(true);
    await call("daily_report", { day: "2026-03-09" });
    expect(store.queries.dailyReport).toBe(1);
  });

  it("serves live_metrics for 30 s of the app's clock, then recomputes over the moved window", async () => {
    const first = await call("live_metrics");
    clock.advance(29_999);
    expect(await call("live_metrics")).toEqual(first);
    expect(store.queries.live).toBe(1);
    clock.advance(2);
    const second = await call("live_metrics");
    expect(store.queries.live).toBe(2);
    expect(second.at).toBe((first.at as number) + 30_001);
  });

  it("never caches realtime", async () => {
    const a = await call("realtime");
    const b = await call("realtime");
    expect(store.queries.realtime).toBe(2);
    expect(b.reading).toBe((a.reading as number) + 1);
  });

  it("shares cached tool results between sessions (scope: global)", async () => {
    const other = await t.connect();
    await call("daily_report", { day: "2026-03-01" });
    await other.callTool({ name: "daily_report", arguments: { day: "2026-03-01" } });
    expect(store.queries.dailyReport).toBe(1);
  });

  it("caches config://metrics and notifies a subscriber when config.changed is emitted", async () => {
    const read = async () =>
      JSON.parse(
        ((await t.client.readResource({ uri: "config://metrics" })).contents[0] as { text: string }).text,
      );
    const config = await read();
    expect(config.metrics).toEqual(["requests", "errors", "latency_ms"]);
    await read();
    expect(store.queries.config).toBe(1);

    const updated: string[] = [];
    t.client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => void updated.push(n.params.uri),
    );
    await t.client.subscribeResource({ uri: "config://metrics" });
    await t.app.get(EVENT_BUS).emit("config.changed");
    await expect.poll(() => updated).toEqual(["config://metrics"]);
    await read();
    expect(store.queries.config).toBe(2);
  });
});

const redis = await redisAvailable();

describe.skipIf(!redis)("examples/metrics with REDIS_URL: two instances share one cache", () => {
  const prefix = randomPrefix("metrics-example");
  let a: TestClient;
  let b: TestClient;
  beforeAll(async () => {
    const backend = () => cacheBackend({ redisUrl: REDIS_URL, prefix, channel: `${prefix}events` });
    a = await createTestClient(MetricsModule, { providers: backend() });
    b = await createTestClient(MetricsModule, { providers: backend() });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await deletePrefix(prefix);
  });

  it("a report computed on one instance is a hit on the other; a write on either drops it for both", async () => {
    const report = (t: TestClient) =>
      t.client.callTool({ name: "daily_report", arguments: { day: "2026-04-01" } });
    expect(a.app.get(CACHE)).not.toBe(b.app.get(CACHE));
    await report(a);
    await report(b);
    expect(a.app.get(MetricsStore).queries.dailyReport).toBe(1);
    expect(b.app.get(MetricsStore).queries.dailyReport).toBe(0);
    expect(b.app.stats().cache.hits).toBe(1);

    await b.client.callTool({
      name: "record_metric",
      arguments: { day: "2026-04-01", name: "requests", value: 1 },
    });
    await report(a);
    expect(a.app.get(MetricsStore).queries.dailyReport).toBe(2);
  });
});
