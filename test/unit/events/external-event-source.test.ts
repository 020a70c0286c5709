import { describe, expect, it } from "vitest";
import type { BusEvent } from "../../../src/events/event-bus.js";
import { ExternalEventSource } from "../../../src/events/external-event-source.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";

/** A source fed by hand: `push` stands for a notification from outside (a database, a queue). */
class ManualSource extends ExternalEventSource {
  listens = 0;
  stops = 0;
  failNextListen = false;
  protected async listen(): Promise<void> {
    this.listens++;
    if (this.failNextListen) {
      this.failNextListen = false;
      throw new Error("cannot reach the database");
    }
  }
  protected async stop(): Promise<void> {
    this.stops++;
  }
  push(name: string, payload?: unknown): void {
    this.publish(name, payload);
  }
}

const recording = () => {
  const bus = new InMemoryEventBus();
  const events: BusEvent[] = [];
  bus.subscribe((e) => void events.push(e));
  return { bus, events };
};

describe("ExternalEventSource", () => {
  it("listens once for every bus it was started with, and publishes to each", async () => {
    const source = new ManualSource();
    const a = recording();
    const b = recording();
    await source.start(a.bus);
    await source.start(b.bus);
    expect(source.listens).toBe(1);
    source.push("orders.changed", { id: 7 });
    await expect.poll(() => b.events.length).toBe(1);
    expect(a.events).toEqual([{ name: "orders.changed", payload: { id: 7 } }]);
    await source.close();
  });

  it("never lets a bus's failure reach the source", async () => {
    const source = new ManualSource();
    const bus = new InMemoryEventBus();
    const reached: string[] = [];
    bus.subscribe(() => {
      reached.push("listener");
      throw new Error("listener broke");
    });
    await source.start(bus);
    expect(() => source.push("x")).not.toThrow();
    await expect.poll(() => reached).toEqual(["listener"]);
    await source.close();
  });

  it("can start again after a failed listen, and stops once on close, publishing nothing after", async () => {
    const source = new ManualSource();
    const { bus, events } = recording();
    source.failNextListen = true;
    await expect(source.start(bus)).rejects.toThrow("cannot reach the database");
    await source.start(bus);
    expect(source.listens).toBe(2);
    await source.close();
    await source.close();
    expect(source.stops).toBe(1);
    source.push("after.close");
    expect(events).toEqual([]);
  });
});
