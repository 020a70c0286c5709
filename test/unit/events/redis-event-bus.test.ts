import { afterAll, describe, expect, it } from "vitest";
import type { BusEvent } from "../../../src/events/event-bus.js";
import { RedisEventBus } from "../../../src/events/redis-event-bus.js";
import { REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";

const available = await redisAvailable();

describe.runIf(available)("RedisEventBus", () => {
  const buses: RedisEventBus[] = [];
  /** Buses on one channel of their own, like instances of one app. */
  const instances = async (count: number, options: { heartbeatMs?: number } = {}) => {
    const channel = randomPrefix("redis-event-bus-unit");
    const made = Array.from(
      { length: count },
      () => new RedisEventBus({ url: REDIS_URL, channel, ...options }),
    );
    buses.push(...made);
    await Promise.all(made.map((b) => b.ready()));
    return made;
  };
  const record = (bus: RedisEventBus) => {
    const events: BusEvent[] = [];
    bus.subscribe((e) => void events.push(e));
    return events;
  };
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
  });

  it("delivers an event to its own listeners at once and to the other instances, once each", async () => {
    const [a, b, c] = await instances(3);
    const [onA, onB, onC] = [a, b, c].map((bus) => record(bus as RedisEventBus));
    await a?.emit("orders.changed", { id: 1 });
    expect(onA).toEqual([{ name: "orders.changed", payload: { id: 1 } }]);
    await expect.poll(() => onB).toEqual([{ name: "orders.changed", payload: { id: 1 } }]);
    await expect.poll(() => onC?.length).toBe(1);
    // Its own publication, coming back from Redis, is not delivered a second time.
    await b?.emit("marker");
    await expect.poll(() => onA.map((e) => e.name)).toEqual(["orders.changed", "marker"]);
  });

  it("keeps channels apart", async () => {
    const [a, same] = await instances(2);
    const [other] = await instances(1);
    const onSame = record(same as RedisEventBus);
    const onOther = record(other as RedisEventBus);
    await a?.emit("only.here");
    await expect.poll(() => onSame.length).toBe(1);
    expect(onOther).toEqual([]);
  });

  it("rejects an emit it could not publish, after delivering it locally", async () => {
    const bus = new RedisEventBus({ url: "redis://127.0.0.1:1", heartbeatMs: 0 });
    buses.push(bus);
    const local = record(bus);
    await expect(bus.emit("lost", { id: 2 })).rejects.toThrow(
      /^publishing "lost" to Redis failed \(Redis is not connected\); other instances get it once Redis answers$/,
    );
    expect(local).toEqual([{ name: "lost", payload: { id: 2 } }]);
  });
});
