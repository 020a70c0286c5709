import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { compareEntryIds, parseEventId } from "../../../src/transports/event-ids.js";
import { RedisEventStore } from "../../../src/transports/redis-event-store.js";
import { ScopedEventStore } from "../../../src/transports/scoped-event-store.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";

const prefix = randomPrefix("redis-event-store-unit");
const available = await redisAvailable();

const silentLogger = { debug() {}, info() {}, warn() {}, error() {} };
const note = (text: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { text },
});
/** A notification whose JSON is exactly `bytes` long. */
const sized = (bytes: number): JSONRPCMessage => {
  const empty = JSON.stringify(note("")).length;
  return note("x".repeat(bytes - empty));
};

async function replay(store: { replayEventsAfter: RedisEventStore["replayEventsAfter"] }, after: string) {
  const got: Array<{ id: string; message: JSONRPCMessage }> = [];
  await store.replayEventsAfter(after, { send: async (id, message) => void got.push({ id, message }) });
  return got;
}

describe("event ids", () => {
  it("parse into stream and entry, and order entries numerically", () => {
    expect(parseEventId("a.b|12-3")).toEqual({ streamId: "a.b", entryId: "12-3" });
    expect(parseEventId("a|b|12-3")).toEqual({ streamId: "a|b", entryId: "12-3" });
    for (const bad of ["", "|1-0", "abc", "s|x-1", "s|1", "s|1-0-0"])
      expect(parseEventId(bad)).toBeUndefined();
    expect(compareEntryIds("9-0", "10-0")).toBeLessThan(0);
    expect(compareEntryIds("10-2", "10-10")).toBeLessThan(0);
    expect(compareEntryIds("10-2", "10-2")).toBe(0);
    expect(compareEntryIds("11-0", "10-99")).toBeGreaterThan(0);
  });
});

describe.runIf(available)("RedisEventStore", () => {
  const stores: RedisEventStore[] = [];
  const make = (options: ConstructorParameters<typeof RedisEventStore>[0] = {}) => {
    const store = new RedisEventStore({ url: REDIS_URL, prefix, ...options });
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await deletePrefix(prefix);
  });

  it("replays the events after an id, in order, from another store instance", async () => {
    const writer = make();
    const reader = make();
    const ids = [];
    for (const text of ["a", "b", "c"]) ids.push(await writer.storeEvent("s1", note(text)));
    await writer.storeEvent("other", note("z"));
    expect(await reader.getStreamIdForEventId(ids[0] as string)).toBe("s1");
    const got = await replay(reader, ids[0] as string);
    expect(got).toEqual([
      { id: ids[1], message: note("b") },
      { id: ids[2], message: note("c") },
    ]);
    expect(await replay(reader, ids[2] as string)).toEqual([]);
  });

  it("drops the oldest events past maxBytesPerStream and refuses a resume across the gap", async () => {
    const store = make({ maxBytesPerStream: 250 });
    const first = await store.storeEvent("bounded", sized(100));
    const second = await store.storeEvent("bounded", sized(100));
    const third = await store.storeEvent("bounded", sized(100)); // 300 > 250: the first goes
    expect(await store.canResumeAfter(first)).toBe(true); // everything after it is still kept
    const fourth = await store.storeEvent("bounded", sized(100)); // the second goes
    expect(await store.canResumeAfter(first)).toBe(false);
    expect(await store.canResumeAfter(second)).toBe(true);
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    await expect(replay(store, first)).rejects.toThrow(/the events after it are gone/);
    expect((await replay(store, second)).map((e) => e.id)).toEqual([third, fourth]);
  });

  it("sends but never keeps a message larger than the bound", async () => {
    const store = make({ maxBytesPerStream: 250 });
    const before = await store.storeEvent("huge", sized(100));
    const huge = await store.storeEvent("huge", sized(1000));
    const after = await store.storeEvent("huge", sized(100));
    expect(await store.canResumeAfter(before)).toBe(false);
    expect(await store.canResumeAfter(huge)).toBe(true);
    expect((await replay(store, huge)).map((e) => e.id)).toEqual([after]);
  });

  it("refuses unknown, foreign and future event ids", async () => {
    const store = make();
    const id = await store.storeEvent("known", note("a"));
    expect(await store.canResumeAfter("nope")).toBe(false);
    expect(await store.canResumeAfter("unknown-stream|1-0")).toBe(false);
    expect(await store.canResumeAfter(`known|${Date.now() + 1e6}-0`)).toBe(false);
    expect(await store.canResumeAfter(id)).toBe(true);
  });

  it("follows a stream another store writes until it is marked answered", async () => {
    const writer = make();
    const follower = make({ pollIntervalMs: 5 });
    const primed = await writer.storeEvent("live", {} as JSONRPCMessage);
    const seen: JSONRPCMessage[] = [];
    let wrote = false;
    const following = follower.follow(
      primed,
      async (_id, message) => {
        seen.push(message);
        // The first message read: write the answer and the end mark, as the instance running the call would.
        if (!wrote) {
          wrote = true;
          await writer.storeEvent("live", { jsonrpc: "2.0", id: 1, result: {} });
          await writer.endStream("live");
        }
      },
      new AbortController().signal,
    );
    await writer.storeEvent("live", note("progress"));
    expect(await following).toBe("ended");
    expect(seen).toEqual([note("progress"), { jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("stops following when the stream expires or the client leaves", async () => {
    const store = make({ pollIntervalMs: 5, ttlMs: 50 });
    const id = await store.storeEvent("short", note("a"));
    // Nothing more is written: the stream expires after ttlMs and the follower ends.
    expect(await store.follow(id, async () => {}, new AbortController().signal)).toBe("expired");
    const leaving = new AbortController();
    const kept = make({ pollIntervalMs: 5 });
    const other = await kept.storeEvent("kept", note("a"));
    const following = kept.follow(other, async () => {}, leaving.signal);
    leaving.abort();
    expect(await following).toBe("aborted");
  });

  it("gives each scope its own streams, though they share the store and the SDK's stream names", async () => {
    const shared = make();
    const alice = new ScopedEventStore(shared, "auth:alice");
    const bob = new ScopedEventStore(shared, "auth:bob");
    const aliceId = await alice.storeEvent("_GET_stream", note("for alice"));
    const bobId = await bob.storeEvent("_GET_stream", note("for bob"));
    expect(await alice.getStreamIdForEventId(aliceId)).toBe("_GET_stream");
    expect(await bob.getStreamIdForEventId(aliceId)).toBeUndefined();
    expect(await bob.canResumeAfter(aliceId)).toBe(false);
    await expect(replay(bob, aliceId)).rejects.toThrow(/cannot resume/);
    expect(await bob.follow(aliceId, async () => {}, new AbortController().signal)).toBe("expired");
    await alice.storeEvent("_GET_stream", note("later"));
    expect((await replay(alice, aliceId)).map((e) => e.message)).toEqual([note("later")]);
    expect(await replay(bob, bobId)).toEqual([]);
  });

  it("still sends a message when Redis fails, refusing only a resume from it", async () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const dead = make({ url: "redis://127.0.0.1:1", logger });
    const id = await dead.storeEvent("s", note("a"));
    expect(id).toBe("s|unkept");
    expect(await dead.canResumeAfter(id)).toBe(false);
    expect(warnings[0]).toContain("keeping an event of stream s failed");
  });

  it("checks its options", () => {
    expect(() => new RedisEventStore({ maxBytesPerStream: 0 })).toThrow(
      /maxBytesPerStream must be a positive number/,
    );
    expect(() => new RedisEventStore({ ttlMs: -1 })).toThrow(/ttlMs/);
  });
});
