/**
 * An instance that starts while its Redis does not answer yet still hears the other
 * instances once Redis is up (issue 14: with several instances, a replica started during
 * a Redis hiccup used to stay deaf for good, its subscriber connection never opened,
 * because opening the publisher failed first).
 *
 *   npx vitest run --config vitest.reliability.config.ts test/reliability/event-bus-slow-start.test.ts
 */
import { RedisEventBus } from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import { deferred } from "../support/gates.js";
import { OwnRedis, redisServerInstalled } from "../support/own-redis.js";

const installed = redisServerInstalled();

describe.skipIf(!installed)("a RedisEventBus started before its Redis answers", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  it("subscribes once Redis is up, and receives the other instances' events", async () => {
    const server = await OwnRedis.start();
    cleanups.push(() => server.stop());
    await server.kill();
    const channel = `slow-start:${Date.now()}`;
    const late = new RedisEventBus({ url: server.url, channel });
    cleanups.push(() => late.close());
    const restored = deferred();
    late.onDeliveryChange((change) => {
      if (change === "restored") restored.resolve();
    });
    await expect(late.ready()).rejects.toThrow();

    await server.restart();
    // Subscribed by itself, in the background, once Redis answers.
    await restored.promise;
    const heard = deferred<string>();
    late.subscribe((event) => heard.resolve(event.name));
    const other = new RedisEventBus({ url: server.url, channel });
    cleanups.push(() => other.close());
    await other.ready();
    await other.emit("articles.changed");
    expect(await heard.promise).toBe("articles.changed");
  });
});
