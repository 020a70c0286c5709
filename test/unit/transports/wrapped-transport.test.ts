import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { type TransportHooks, WrappedTransport } from "../../../src/transports/wrapped-transport.js";

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "ping" });
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, result: {} });

/** A linked pair: what the wrapper sends arrives at `peer`, what `peer` sends arrives through the wrapper. */
async function pair() {
  const [inner, peer] = InMemoryTransport.createLinkedPair();
  const atPeer: JSONRPCMessage[] = [];
  peer.onmessage = (message) => atPeer.push(message);
  await peer.start();
  return { inner, peer, atPeer };
}

describe("WrappedTransport", () => {
  it("passes messages both ways unchanged without hooks, and leaves the inner transport's send alone", async () => {
    const { inner, peer, atPeer } = await pair();
    const send = inner.send;
    const wrapped = new WrappedTransport(inner);
    const received: JSONRPCMessage[] = [];
    wrapped.onmessage = (message) => received.push(message);
    await wrapped.start();
    await wrapped.send(answer(1));
    await peer.send(ping(2));
    expect(atPeer).toEqual([answer(1)]);
    expect(received).toEqual([ping(2)]);
    expect(inner.send).toBe(send);
  });

  it("runs its hooks on each message: sends changed or dropped, received ones screened", async () => {
    const { inner, peer, atPeer } = await pair();
    const wrapped = new WrappedTransport(inner, {
      send: (message, options, forward) =>
        "id" in message && message.id === 0
          ? Promise.resolve()
          : forward({ ...message, id: 9 } as JSONRPCMessage, options),
      receive: (message, extra, deliver) => {
        if ("id" in message && message.id !== 0) deliver(message, extra);
      },
    });
    const received: JSONRPCMessage[] = [];
    wrapped.onmessage = (message) => received.push(message);
    await wrapped.start();
    await wrapped.send(answer(0)); // dropped
    await wrapped.send(answer(1)); // renumbered
    await peer.send(ping(0)); // screened out
    await peer.send(ping(3));
    expect(atPeer).toEqual([answer(9)]);
    expect(received).toEqual([ping(3)]);
    // Past the hooks: deliver() reaches the server above, sendBelow() the transport below.
    wrapped.deliver(ping(0));
    await wrapped.sendBelow(answer(0));
    expect(received).toEqual([ping(3), ping(0)]);
    expect(atPeer).toEqual([answer(9), answer(0)]);
  });

  it("stacks: the outer wrapper's send hook runs first, its receive hook last", async () => {
    const { inner, peer } = await pair();
    const order: string[] = [];
    const hooks = (name: string): TransportHooks => ({
      send: (message, _options, forward) => {
        order.push(`send ${name}`);
        return forward(message);
      },
      receive: (message, _extra, deliver) => {
        order.push(`receive ${name}`);
        deliver(message);
      },
    });
    const outer = new WrappedTransport(new WrappedTransport(inner, hooks("inner")), hooks("outer"));
    outer.onmessage = () => order.push("server");
    await outer.start();
    await outer.send(answer(1));
    await peer.send(ping(1));
    expect(order).toEqual(["send outer", "send inner", "receive inner", "receive outer", "server"]);
  });

  it("keeps the callbacks set on the inner transport before it was wrapped, and reads its session id", async () => {
    const inner: Transport = {
      sessionId: "s-1",
      start: async () => {},
      send: async () => {},
      close: async () => inner.onclose?.(),
    };
    const events: string[] = [];
    inner.onclose = () => events.push("inner closed");
    const wrapped = new WrappedTransport(inner);
    wrapped.onclose = () => events.push("wrapper closed");
    await wrapped.start();
    expect(wrapped.sessionId).toBe("s-1");
    await wrapped.close();
    expect(events).toEqual(["inner closed", "wrapper closed"]);
  });
});
