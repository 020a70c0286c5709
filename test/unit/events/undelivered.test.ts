import { describe, expect, it } from "vitest";
import type { DeliveryChange, EventBus } from "../../../src/events/event-bus.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";
import { reportUndelivered } from "../../../src/events/undelivered.js";

describe("reportUndelivered", () => {
  it("passes events through, and reports one that failed while the emitter still gets the error", async () => {
    const bus = new InMemoryEventBus();
    const undelivered: string[] = [];
    const reporting = reportUndelivered(bus, (name) => void undelivered.push(name));
    const seen: string[] = [];
    reporting.subscribe((e) => {
      seen.push(e.name);
      if (e.name === "bad") throw new Error("listener failed");
    });
    await reporting.emit("good", { id: 1 });
    await expect(reporting.emit("bad")).rejects.toThrow("listener failed");
    expect(seen).toEqual(["good", "bad"]);
    expect(undelivered).toEqual(["bad"]);
  });

  it("keeps the emitter's error when the report itself throws", async () => {
    const bus = new InMemoryEventBus();
    bus.subscribe(() => {
      throw new Error("the real failure");
    });
    const reporting = reportUndelivered(bus, () => {
      throw new Error("reporter broke");
    });
    await expect(reporting.emit("x")).rejects.toThrow("the real failure");
  });

  it("forwards delivery changes of a bus that has them, and has none for one that does not", () => {
    expect(reportUndelivered(new InMemoryEventBus(), () => {}).onDeliveryChange).toBeUndefined();
    const watchers: Array<(change: DeliveryChange) => void> = [];
    const inner = new InMemoryEventBus();
    const watching: EventBus = {
      emit: (name, payload) => inner.emit(name, payload),
      subscribe: (listener) => inner.subscribe(listener),
      onDeliveryChange(listener) {
        watchers.push(listener);
        return () => {};
      },
    };
    const changes: DeliveryChange[] = [];
    reportUndelivered(watching, () => {}).onDeliveryChange?.((c) => void changes.push(c));
    for (const watcher of watchers) watcher("interrupted");
    expect(changes).toEqual(["interrupted"]);
  });
});
