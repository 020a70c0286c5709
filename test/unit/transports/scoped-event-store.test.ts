import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { RedisEventStore } from "../../../src/transports/redis-event-store.js";
import { isSharedEventStore, ScopedEventStore } from "../../../src/transports/scoped-event-store.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";

const prefix = randomPrefix("scoped-event-store-unit");
const available = await redisAvailable();
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const note = (text: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { text },
});
const textOf = (message: JSONRPCMessage) => ("params" in message ? String(message.params?.text) : "");

describe("isSharedEventStore", () => {
  it("accepts a store object with the shared methods, not a per-session factory or a plain EventStore", async () => {
    const shared = new RedisEventStore({ url: REDIS_URL, prefix, logger: silent });
    expect(isSharedEventStore(shared)).toBe(true);
    expect(isSharedEventStore(() => shared)).toBe(false);
    expect(isSharedEventStore({ storeEvent() {}, replayEventsAfter() {} })).toBe(false);
    expect(isSharedEventStore(undefined)).toBe(false);
    expect(isSharedEventStore(null)).toBe(false);
    await shared.close();
  });
});

describe.runIf(available)("ScopedEventStore over a RedisEventStore", () => {
  const shared = new RedisEventStore({ url: REDIS_URL, prefix, logger: silent });
  afterAll(async () => {
    await shared.close();
    await deletePrefix(prefix);
  });

  it("gives back the SDK's own stream id and replays only that stream", async () => {
    const alice = new ScopedEventStore(shared, "principal:alice");
    const first = await alice.storeEvent("_GET_stream", note("a1"));
    await alice.storeEvent("_GET_stream", note("a2"));
    await alice.storeEvent("other", note("elsewhere"));
    expect(await alice.getStreamIdForEventId(first)).toBe("_GET_stream");
    const got: string[] = [];
    const stream = await alice.replayEventsAfter(first, { send: async (_id, m) => void got.push(textOf(m)) });
    expect(stream).toBe("_GET_stream");
    expect(got).toEqual(["a2"]);
    expect([...alice.streams].sort()).toEqual(["_GET_stream", "other"]);
  });

  it("never lets another scope resume a stream, even one with the same SDK name", async () => {
    const alice = new ScopedEventStore(shared, "principal:alice2");
    const mallory = new ScopedEventStore(shared, "principal:mallory");
    const id = await alice.storeEvent("_GET_stream", note("secret"));
    await alice.storeEvent("_GET_stream", note("secret 2"));
    expect(await mallory.getStreamIdForEventId(id)).toBeUndefined();
    expect(await mallory.canResumeAfter(id)).toBe(false);
    await expect(mallory.replayEventsAfter(id, { send: async () => {} })).rejects.toThrow(
      /cannot resume after event/,
    );
    expect(await mallory.follow(id, async () => {}, new AbortController().signal)).toBe("expired");
    expect(await alice.canResumeAfter(id)).toBe(true);
  });

  it("ends every stream it wrote but the one named, so their followers stop", async () => {
    const scope = new ScopedEventStore(shared, "request:42");
    const kept = await scope.storeEvent("post-1", note("p1"));
    const ended = await scope.storeEvent("post-2", note("p2"));
    await scope.endStreams("post-1");
    const followed: string[] = [];
    expect(
      await scope.follow(
        ended,
        async (_id, m) => void followed.push(textOf(m)),
        new AbortController().signal,
      ),
    ).toBe("ended");
    expect(followed).toEqual([]);
    // The stream it kept open is still followed: abort once it has nothing more to give.
    const stop = new AbortController();
    await scope.storeEvent("post-1", note("p1 more"));
    const more: string[] = [];
    const following = scope.follow(
      kept,
      async (_id, m) => {
        more.push(textOf(m));
        stop.abort();
      },
      stop.signal,
    );
    expect(await following).toBe("aborted");
    expect(more).toEqual(["p1 more"]);
  });
});
