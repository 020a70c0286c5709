import { describe, expect, it } from "vitest";
import type { BusEvent } from "../../../src/events/event-bus.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";

describe("InMemoryEventBus", () => {
  it("delivers each event to every listener, with its payload only when there is one", async () => {
    const bus = new InMemoryEventBus();
    const first: BusEvent[] = [];
    const second: BusEvent[] = [];
    bus.subscribe((e) => void first.push(e));
    bus.subscribe((e) => void second.push(e));
    await bus.emit("articles.changed", { site: "a" });
    await bus.emit("ping");
    expect(first).toEqual([{ name: "articles.changed", payload: { site: "a" } }, { name: "ping" }]);
    expect(first[1]).not.toHaveProperty("payload");
    expect(second).toEqual(first);
  });

  it("resolves only once async listeners have finished", async () => {
    const bus = new InMemoryEventBus();
    let finished = false;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    bus.subscribe(async () => {
      await gate;
      finished = true;
    });
    const emitted = bus.emit("x");
    expect(finished).toBe(false);
    release();
    await emitted;
    expect(finished).toBe(true);
  });

  it("runs every listener even if one rejects, then rejects with the first failure", async () => {
    const bus = new InMemoryEventBus();
    const reached: string[] = [];
    bus.subscribe(async () => {
      throw new Error("first listener broke");
    });
    bus.subscribe(async () => {
      reached.push("second");
      throw new Error("second listener broke");
    });
    bus.subscribe(() => void reached.push("third"));
    await expect(bus.emit("x")).rejects.toThrow("first listener broke");
    expect(reached).toEqual(["second", "third"]);
  });

  // A listener that throws synchronously (not an async one) once stopped the listeners after it.
  it("runs every listener even if one throws synchronously", async () => {
    const bus = new InMemoryEventBus();
    const reached: string[] = [];
    bus.subscribe(() => {
      throw new Error("sync failure");
    });
    bus.subscribe(() => void reached.push("second"));
    await expect(bus.emit("x")).rejects.toThrow("sync failure");
    expect(reached).toEqual(["second"]);
  });

  it("stops delivering to a listener once it unsubscribed", async () => {
    const bus = new InMemoryEventBus();
    const seen: string[] = [];
    const unsubscribe = bus.subscribe((e) => void seen.push(e.name));
    await bus.emit("a");
    unsubscribe();
    await bus.emit("b");
    expect(seen).toEqual(["a"]);
  });
});
