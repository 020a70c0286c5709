/**
 * The one adapter into SDK 1.x internals (src/transports/session-revival.ts): pins what it
 * relies on, so an SDK upgrade that moves it fails here, by name, rather than serving a
 * half-rebuilt session. test/e2e/shared-sessions.test.ts drives the whole path.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { MemoryEventStore } from "../../../src/transports/memory-event-store.js";
import {
  reviveServer,
  reviveTransport,
  STANDALONE_STREAM_ID,
} from "../../../src/transports/session-revival.js";

/** A real event store that also remembers the ids it gave. */
class RecordingStore extends MemoryEventStore {
  readonly ids: string[] = [];
  override async storeEvent(...args: Parameters<MemoryEventStore["storeEvent"]>) {
    const id = await super.storeEvent(...args);
    this.ids.push(id);
    return id;
  }
}

describe("session revival", () => {
  it("makes a fresh transport the initialized transport of a given session", () => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => "unused" });
    expect(transport.sessionId).toBeUndefined();
    reviveTransport(transport, "session-1");
    expect(transport.sessionId).toBe("session-1");
  });

  it("refuses to revive a transport twice, or one that is not the SDK's", () => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => "unused" });
    reviveTransport(transport, "session-1");
    expect(() => reviveTransport(transport, "session-2")).toThrow(
      /changed its internals.*session-revival\.ts/,
    );
    expect(() => reviveTransport({} as StreamableHTTPServerTransport, "x")).toThrow(
      /pin @modelcontextprotocol\/sdk/,
    );
  });

  it("names the standalone GET stream as the SDK stores it", async () => {
    const eventStore = new RecordingStore();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => "unused", eventStore });
    reviveTransport(transport, "session-1");
    const server = new Server(
      { name: "s", version: "1" },
      { capabilities: { resources: { listChanged: true } } },
    );
    await server.connect(transport);
    // A notification outside any call goes to the standalone stream (kept for replay while none is open).
    await server.sendResourceListChanged();
    expect(await eventStore.getStreamIdForEventId(eventStore.ids[0] as string)).toBe(STANDALONE_STREAM_ID);
    await server.close();
  });

  it("gives a fresh server the client's declared capabilities and clientInfo", () => {
    const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
    const clientCapabilities = { elicitation: { form: {} } };
    reviveServer(server, { clientCapabilities, clientInfo: { name: "c", version: "2" } });
    expect(server.getClientCapabilities()).toBe(clientCapabilities);
    expect(server.getClientVersion()).toEqual({ name: "c", version: "2" });
  });
});
