import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { EventStoreBudget, MemoryEventStore } from "../../../src/transports/memory-event-store.js";

const note = (text: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { text },
});
const bytesOf = (text: string) => Buffer.byteLength(JSON.stringify(note(text)));

async function replay(store: MemoryEventStore, after: string): Promise<string[]> {
  const texts: string[] = [];
  await store.replayEventsAfter(after, {
    send: async (_id, message) => void texts.push("params" in message ? String(message.params?.text) : ""),
  });
  return texts;
}

describe("MemoryEventStore", () => {
  it("replays the events of one stream after an id, in order, and names the stream", async () => {
    const store = new MemoryEventStore();
    const first = await store.storeEvent("s1", note("a"));
    await store.storeEvent("s2", note("other stream"));
    await store.storeEvent("s1", note("b"));
    await store.storeEvent("s1", note("c"));
    expect(await store.getStreamIdForEventId(first)).toBe("s1");
    expect(await replay(store, first)).toEqual(["b", "c"]);
    expect(store.size).toBe(4);
  });

  it("refuses ids it never gave out", async () => {
    const store = new MemoryEventStore();
    await store.storeEvent("s1", note("a"));
    for (const id of ["s1", "s1|0", "s1|2", "s9|1", "s1|x"]) expect(store.canResumeAfter(id), id).toBe(false);
    await expect(replay(store, "s1|7")).rejects.toThrow(/cannot resume after event s1\|7/);
  });

  it("drops the oldest events past maxBytes, and then refuses a resume that would skip them", async () => {
    const size = bytesOf("aaaa");
    const store = new MemoryEventStore({ maxBytes: size * 2 });
    const ids = [];
    for (const text of ["aaaa", "bbbb", "cccc"]) ids.push(await store.storeEvent("s", note(text)));
    expect(store.bytes).toBe(size * 2);
    expect(store.canResumeAfter(ids[0] as string)).toBe(true); // "a" was seen: b and c are all there
    expect(await replay(store, ids[0] as string)).toEqual(["bbbb", "cccc"]);
    await store.storeEvent("s", note("dddd"));
    expect(store.canResumeAfter(ids[0] as string)).toBe(false);
    expect(await replay(store, ids[1] as string)).toEqual(["cccc", "dddd"]);
  });

  it("sends but never keeps a message larger than the store, so no resume skips it", async () => {
    const store = new MemoryEventStore({ maxBytes: 100 });
    const before = await store.storeEvent("s", note("small"));
    await store.storeEvent("s", note("x".repeat(200)));
    const after = await store.storeEvent("s", note("small again"));
    expect(store.canResumeAfter(before)).toBe(false);
    expect(await replay(store, after)).toEqual([]);
  });

  it("bounds events per stream and the number of streams, forgetting the least recently written", async () => {
    const store = new MemoryEventStore({ maxEventsPerStream: 2, maxStreams: 2 });
    const a1 = await store.storeEvent("a", note("a1"));
    const a2 = await store.storeEvent("a", note("a2"));
    await store.storeEvent("a", note("a3"));
    expect(store.canResumeAfter(a1)).toBe(true);
    expect(await replay(store, a2)).toEqual(["a3"]);
    const b1 = await store.storeEvent("b", note("b1"));
    await store.storeEvent("a", note("a4")); // "a" is now the most recently written
    await store.storeEvent("c", note("c1")); // a third stream: "b" goes
    expect(store.canResumeAfter(b1)).toBe(false);
    expect(await store.getStreamIdForEventId(a2)).toBe("a");
  });

  it("keeps nothing after dispose and gives its bytes back to the shared budget", async () => {
    const budget = new EventStoreBudget(10_000);
    const store = new MemoryEventStore({ budget });
    const id = await store.storeEvent("s", note("kept"));
    expect(budget.usedBytes).toBe(bytesOf("kept"));
    store.dispose();
    expect(budget.usedBytes).toBe(0);
    expect(store.canResumeAfter(id)).toBe(false);
    await store.storeEvent("s", note("after"));
    expect([store.size, budget.usedBytes]).toEqual([0, 0]);
  });
});

describe("EventStoreBudget", () => {
  it("over budget, drops the oldest events of the store holding the most", async () => {
    const size = bytesOf("1234");
    const budget = new EventStoreBudget(size * 3);
    const small = new MemoryEventStore({ budget });
    const large = new MemoryEventStore({ budget });
    const kept = await small.storeEvent("s", note("1234"));
    const l1 = await large.storeEvent("l", note("aaaa"));
    const l2 = await large.storeEvent("l", note("bbbb"));
    await large.storeEvent("l", note("cccc"));
    expect(budget.usedBytes).toBe(size * 3);
    expect([small.size, large.size]).toEqual([1, 2]);
    expect(small.canResumeAfter(kept)).toBe(true);
    expect(large.canResumeAfter(l1)).toBe(true);
    expect(await replay(large, l2)).toEqual(["cccc"]);
  });

  it("refuses a budget that is not positive", () => {
    expect(() => new EventStoreBudget(0)).toThrow("EventStoreBudget: maxBytes must be positive, got 0");
    expect(() => new EventStoreBudget(Number.NaN)).toThrow(RangeError);
  });
});
