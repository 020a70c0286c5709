/**
 * Issue 13, finding 6: read-after-write through the cache. A read that starts after a
 * write was acknowledged must never join the miss that the write's invalidation marked
 * stale (it would answer with the value the write replaced); a read that starts after
 * every caller of a miss cancelled must never join the cancelled run.
 *
 *   npx vitest run test/reliability/cache-read-after-write.test.ts
 */
import { getEventListeners } from "node:events";
import { Cached, Invalidates, McpModule, McpService, Tool, type ToolContext } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { Flight, SingleFlight } from "../../src/cache/single-flight.js";
import { type Deferred, deferred } from "../support/gates.js";

/** Resolves with `promise`'s value, or with `"still waiting"` after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | "still waiting"> {
  return Promise.race([
    promise,
    new Promise<"still waiting">((r) => setTimeout(() => r("still waiting"), ms)),
  ]);
}

const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });

@McpService()
class Settings {
  value = 0;
  runs = 0;
  /** When set, the next read holds here after reading the value (the miss in progress). */
  hold: { started: Deferred; release: Deferred } | undefined;
  /** When set, the next slow read waits for its cancellation, then for `cleanup`, then fails. */
  cancellable: { started: Deferred; abortSeen: Deferred; cleanup: Deferred } | undefined;

  @Tool()
  @Cached({ ttl: 60_000, invalidateOn: ["settings.changed"] })
  async read() {
    const value = this.value;
    const hold = this.hold;
    this.hold = undefined;
    if (hold) {
      hold.started.resolve();
      await hold.release.promise;
    }
    return { value };
  }

  @Tool({ input: { value: z.number() } })
  @Invalidates("settings.changed")
  write({ value }: { value: number }) {
    this.value = value;
    return { written: value };
  }

  @Tool()
  @Cached({ ttl: 60_000 })
  async slow(_input: unknown, ctx: ToolContext) {
    const run = ++this.runs;
    const gate = this.cancellable;
    this.cancellable = undefined;
    if (gate) {
      gate.started.resolve();
      await aborted(ctx.signal);
      gate.abortSeen.resolve();
      // Clean-up takes a while; the flight stays registered until the handler settles.
      await gate.cleanup.promise;
      throw new Error(`run ${run} was cancelled`);
    }
    return { run };
  }
}

@McpModule({ services: [Settings] })
class SettingsModule {}

const readValue = (result: unknown) =>
  (result as { structuredContent: { value: number } }).structuredContent.value;

describe("read-after-write through the cache", () => {
  let t: TestClient;
  let settings: Settings;
  beforeEach(async () => {
    t = await createTestClient(SettingsModule);
    settings = t.app.get(Settings);
  });
  afterEach(() => t.close());

  it("20 of 20 reads started after an acknowledged write get the new value, while the earlier miss still runs", async () => {
    const trials = 20;
    let staleReads = 0;
    for (let trial = 0; trial < trials; trial++) {
      const before = 2 * trial;
      const after = 2 * trial + 1;
      await t.callTool({ name: "write", arguments: { value: before } }); // also drops the cached read
      const hold = { started: deferred(), release: deferred() };
      settings.hold = hold;
      const early = t.callTool({ name: "read", arguments: {} }); // a miss that read `before`
      await hold.started.promise;

      const written = await t.callTool({ name: "write", arguments: { value: after } });
      expect(written.structuredContent).toEqual({ written: after });
      // Acknowledged. A read that starts now must see `after`, without waiting for the early miss.
      const late = t.callTool({ name: "read", arguments: {} });
      const answered = await within(late, 250);
      hold.release.resolve();
      const lateValue = readValue(answered === "still waiting" ? await late : answered);
      if (answered === "still waiting" || lateValue !== after) staleReads++;
      expect(readValue(await early)).toBe(before); // it started before the write: either is fine, this is what it read
    }
    console.log(`read-after-write: ${trials} trials, ${staleReads} stale reads`);
    expect(staleReads).toBe(0);
    // The stale early misses never reached the cache: the next read is served the newest value.
    expect(readValue(await t.callTool({ name: "read", arguments: {} }))).toBe(2 * trials - 1);
  });

  it("a call that starts after every caller cancelled runs anew instead of joining the cancelled run", async () => {
    const gate = { started: deferred(), abortSeen: deferred(), cleanup: deferred() };
    settings.cancellable = gate;
    const controller = new AbortController();
    const first = t.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal });
    first.catch(() => {});
    await gate.started.promise;
    controller.abort();
    await expect(first).rejects.toThrow();
    await gate.abortSeen.promise; // the server aborted the run; its handler is still cleaning up

    const next = t.callTool({ name: "slow", arguments: {} });
    const answered = await within(next, 1_000);
    gate.cleanup.resolve();
    const result = answered === "still waiting" ? await next : answered;
    expect(answered).not.toBe("still waiting");
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ run: 2 });
  });
});

describe("a flight lets go of its callers' signals", () => {
  it("removes its abort listeners from every caller's signal once it settles", async () => {
    const callers = [new AbortController(), new AbortController(), new AbortController()];
    const [first, ...others] = callers as [AbortController, AbortController, AbortController];
    const flight = new Flight("ns", null, first.signal);
    for (const caller of others) flight.join(caller.signal);
    expect(callers.map((c) => getEventListeners(c.signal, "abort").length)).toEqual([1, 1, 1]);
    flight.resolve("done");
    await flight.promise;
    expect(callers.map((c) => getEventListeners(c.signal, "abort").length)).toEqual([0, 0, 0]);
    // A long-lived signal (a session's) that joins many flights keeps nothing from them.
    const session = new AbortController();
    for (let i = 0; i < 100; i++) {
      const f = new Flight("ns", i, session.signal);
      f.reject(new Error("failed"));
    }
    expect(getEventListeners(session.signal, "abort")).toHaveLength(0);
  });

  it("is not offered to new callers once stale or abandoned, but an invalidation still reaches it", () => {
    const flights = new SingleFlight();
    const a = new AbortController();
    const abandoned = flights.start("k", "ns", null, a.signal);
    a.abort();
    expect(flights.get("k")).toBeUndefined();
    const fresh = flights.start("k", "ns", null, new AbortController().signal);
    expect(flights.get("k")).toBe(fresh);
    flights.markStale("ns");
    expect(flights.get("k")).toBeUndefined();
    // Both runs, the replaced one included, are stale: neither may store its result.
    expect([abandoned.stale, fresh.stale]).toEqual([true, true]);
    flights.finish("k", abandoned);
    flights.finish("k", fresh);
    expect(flights.size).toBe(0);
  });
});
