import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisEventStore } from "../../../src/transports/redis-event-store.js";
import { resumeStream } from "../../../src/transports/resume-stream.js";
import { ScopedEventStore } from "../../../src/transports/scoped-event-store.js";
import { type OneShotServer, oneShotServer } from "../../support/one-shot-server.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../../support/services.js";

const prefix = randomPrefix("resume-stream-unit");
const available = await redisAvailable();
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const note = (text: string): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { text },
});

describe.runIf(available)("resumeStream", () => {
  const shared = new RedisEventStore({ url: REDIS_URL, prefix, logger: silent, pollIntervalMs: 10 });
  /** The scope of each request is its `x-scope` header, as a principal would be. */
  const scope = (name: string) => new ScopedEventStore(shared, name);
  let server: OneShotServer;
  beforeAll(async () => {
    server = await oneShotServer((req, res) =>
      resumeStream(res, scope(String(req.headers["x-scope"])), String(req.headers["last-event-id"]), silent),
    );
  });
  afterAll(async () => {
    await server.close();
    await shared.close();
    await deletePrefix(prefix);
  });

  it("replays what the client missed as SSE, then ends when the stream is answered", async () => {
    const writer = scope("alice");
    const seen = await writer.storeEvent("post", note("one"));
    const second = await writer.storeEvent("post", note("two"));
    await writer.storeEvent("post", { jsonrpc: "2.0", id: 1, result: { done: true } });
    await writer.endStreams("none");
    const reply = await server.send({
      method: "GET",
      headers: { "x-scope": "alice", "last-event-id": seen },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/event-stream");
    const events = reply.body.split("\n\n").filter(Boolean);
    expect(events[0]).toBe(`event: message\nid: ${second}\ndata: ${JSON.stringify(note("two"))}`);
    expect(events).toHaveLength(2);
    expect(events[1]).toMatch(
      /^event: message\nid: .+\ndata: \{"jsonrpc":"2.0","id":1,"result":\{"done":true\}\}$/,
    );
  });

  it("follows events written after the client came back, until the stream is answered", async () => {
    const writer = scope("bob");
    const seen = await writer.storeEvent("post", note("before"));
    const response = await fetch(`http://127.0.0.1:${server.port}/`, {
      headers: { "x-scope": "bob", "last-event-id": seen },
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await writer.storeEvent("post", note("later"));
    let text = "";
    while (!text.includes("later")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before the new event: ${text}`);
      text += Buffer.from(value).toString();
    }
    await writer.endStreams("none");
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
    }
    expect(text).toContain(JSON.stringify(note("later")));
  });

  it("answers 400 for another caller's event id, or one it cannot resume after", async () => {
    const id = await scope("carol").storeEvent("post", note("private"));
    await scope("carol").storeEvent("post", note("private 2"));
    for (const [who, lastEventId] of [
      ["mallory", id],
      ["carol", "garbage"],
    ] as const) {
      const reply = await server.send({
        method: "GET",
        headers: { "x-scope": who, "last-event-id": lastEventId },
      });
      expect(reply.status).toBe(400);
      expect(JSON.parse(reply.body).error.message).toMatch(/^Cannot resume after this Last-Event-ID/);
      expect(reply.body).not.toContain("private");
    }
  });
});
