import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BusEvent } from "../../../src/events/event-bus.js";
import { FileWatchSource } from "../../../src/events/file-watch-source.js";
import { InMemoryEventBus } from "../../../src/events/in-memory-event-bus.js";

const dir = mkdtempSync(join(tmpdir(), "frugal-file-watch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Resolves with the first event the bus delivers. */
const nextEvent = (bus: InMemoryEventBus) =>
  new Promise<BusEvent>((resolve) => {
    const off = bus.subscribe((event) => {
      off();
      resolve(event);
    });
  });

describe("FileWatchSource", () => {
  it("emits its event, with the file's path as payload, when the watched file changes", async () => {
    const file = join(dir, "prices.json");
    writeFileSync(file, "{}");
    const bus = new InMemoryEventBus();
    const source = new FileWatchSource({ path: file, event: "prices.changed", debounceMs: 5 });
    await source.start(bus);
    try {
      const event = nextEvent(bus);
      writeFileSync(file, '{"a":1}');
      expect(await event).toEqual({ name: "prices.changed", payload: { path: file } });
    } finally {
      await source.close();
    }
  });

  it("ignores other files of the directory, and sends a given payload", async () => {
    const file = join(dir, "watched.txt");
    writeFileSync(file, "a");
    const bus = new InMemoryEventBus();
    const seen: BusEvent[] = [];
    bus.subscribe((e) => void seen.push(e));
    const source = new FileWatchSource({
      path: file,
      event: "watched.changed",
      payload: { site: "x" },
      debounceMs: 5,
    });
    await source.start(bus);
    try {
      const event = nextEvent(bus);
      // The unrelated write comes first: had it counted, it would be the first event seen.
      writeFileSync(join(dir, "other.txt"), "noise");
      writeFileSync(file, "b");
      expect(await event).toEqual({ name: "watched.changed", payload: { site: "x" } });
      expect(seen.every((e) => e.name === "watched.changed")).toBe(true);
    } finally {
      await source.close();
    }
  });
});
