import { afterEach, describe, expect, it, vi } from "vitest";
import { ManualClock } from "../../../src/clock/clock.js";
import type { RedisConnection } from "../../../src/redis/redis-connection.js";
import { type PendingUndo, RedisUndoQueue } from "../../../src/storage/redis-undo-queue.js";

const keys = {
  metaKey: (id: string) => `m:{${id}}`,
  blobKey: (id: string, version: number, part: string) => `${part[0]}:{${id}}:${version}`,
};

/** A connection whose EVAL fails while `down`, recording each call's keys and arguments. */
function connection() {
  const calls: unknown[][] = [];
  const state = { down: true, status: "ready" };
  const client = {
    get status() {
      return state.status;
    },
    eval: (...args: unknown[]) => {
      calls.push(args.slice(1));
      return state.down ? Promise.reject(new Error("Command timed out")) : Promise.resolve(1);
    },
  };
  return { connection: { client } as unknown as RedisConnection, calls, state };
}

const undo = (over: Partial<PendingUndo> = {}): PendingUndo => ({
  id: "a",
  version: 2,
  json: '{"version":2}',
  previousJson: '{"version":1}',
  previous: { expiresAt: 70_000, version: 1 } as PendingUndo["previous"],
  expiresAt: 60_000,
  ...over,
});

afterEach(() => vi.useRealTimers());

describe("RedisUndoQueue", () => {
  it("sends the undo at once with the keys and the metadata to restore, and again until Redis answers", async () => {
    vi.useFakeTimers();
    const clock = new ManualClock(10_000);
    const { connection: redis, calls, state } = connection();
    const queue = new RedisUndoQueue(redis, keys, () => clock);
    queue.undo(undo());
    expect(calls).toEqual([
      [3, "m:{a}", "c:{a}:2", "i:{a}:2", '{"version":2}', '{"version":1}', 60_000, 2, "0"],
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(2);
    state.down = false;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toHaveLength(3); // answered: nothing left to send
    queue.stop();
  });

  it("gives up an undo once its write's keys have expired by themselves, and restores nothing expired", async () => {
    vi.useFakeTimers();
    const clock = new ManualClock(10_000);
    const { connection: redis, calls } = connection();
    const queue = new RedisUndoQueue(redis, keys, () => clock);
    queue.undo(undo({ previous: { expiresAt: 5_000, version: 1 } as PendingUndo["previous"] }));
    expect(calls[0]?.[5]).toBe(""); // the replaced metadata had expired: nothing to restore
    clock.advance(60_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(1);
    queue.stop();
  });
});
