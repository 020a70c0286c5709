import { afterEach, describe, expect, it, vi } from "vitest";
import { ExternalEventSource } from "../../../src/events/external-event-source.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";
import { startEventSources } from "../../../src/runtime/event-sources.js";
import { recordingLogger } from "../../support/unit-build.js";

class TickSource extends ExternalEventSource {
  listens = 0;
  protected async listen() {
    this.listens++;
  }
  protected async stop() {}
  tick(payload: unknown) {
    this.publish("tick", payload);
  }
}
class BrokenSource extends ExternalEventSource {
  protected async listen() {
    throw new Error("connection refused");
  }
  protected async stop() {}
}
class HangingSource extends ExternalEventSource {
  protected listen() {
    return new Promise<void>(() => {});
  }
  protected async stop() {}
}

describe("startEventSources", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("starts every event source among the providers with the app's bus, and ignores other providers", async () => {
    const source = new TickSource();
    const bus = new InMemoryEventBus();
    const heard: unknown[] = [];
    bus.subscribe((event) => {
      heard.push(event);
    });
    await startEventSources(
      [source, { ready: () => Promise.resolve() }, "not a provider"],
      bus,
      1_000,
      recordingLogger(),
    );
    expect(source.listens).toBe(1);
    source.tick({ n: 1 });
    await vi.waitFor(() =>
      expect(heard).toEqual([expect.objectContaining({ name: "tick", payload: { n: 1 } })]),
    );
  });

  it("logs a source that cannot start, naming it, and starts the app without it", async () => {
    const logger = recordingLogger();
    await startEventSources([new BrokenSource()], new InMemoryEventBus(), 1_000, logger);
    expect(logger.lines).toEqual([
      {
        level: "error",
        message: "BrokenSource could not start; its events will not arrive",
        details: expect.objectContaining({ message: "connection refused" }),
      },
    ]);
  });

  it("waits no longer than the timeout for a source that never connects", async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const started = startEventSources([new HangingSource()], new InMemoryEventBus(), 3_000, logger);
    await vi.advanceTimersByTimeAsync(3_000);
    await started;
    expect(logger.lines.map((line) => [line.level, line.message])).toEqual([
      ["warn", "some providers were not ready after 3000 ms; starting anyway"],
    ]);
  });
});
