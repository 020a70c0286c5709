import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { describe, expect, it } from "vitest";
import {
  canResume,
  checkedOption,
  initializeIds,
  isInitialize,
  newHttpSession,
} from "../../../src/transports/http-session.js";
import { MemoryEventStore } from "../../../src/transports/memory-event-store.js";

const transport = {} as StreamableHTTPServerTransport;
const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
});

describe("http-session", () => {
  it("starts a session idle, not ended, ending until established, with nothing open", () => {
    const session = newHttpSession("s", transport, undefined, "alice");
    expect(session).toMatchObject({
      id: "s",
      principal: "alice",
      open: 0,
      ended: false,
      ending: true,
      streams: 0,
    });
  });

  it("finds the initialize requests of a POST body, batched or not", () => {
    expect(isInitialize(initialize(1))).toBe(true);
    expect(isInitialize([{ jsonrpc: "2.0", method: "notifications/initialized" }, initialize(2)])).toBe(true);
    expect(isInitialize({ jsonrpc: "2.0", id: 1, method: "ping" })).toBe(false);
    expect(initializeIds([initialize(3), { jsonrpc: "2.0", id: 4, method: "ping" }])).toEqual([3]);
  });

  it("resumes unless the session's bounded store dropped the events after Last-Event-ID", async () => {
    const store = new MemoryEventStore({ maxBytes: 200 });
    const session = newHttpSession("s", transport, store, undefined);
    const first = await store.storeEvent("stream", {
      jsonrpc: "2.0",
      method: "m",
      params: { text: "x".repeat(100) },
    });
    for (let i = 0; i < 5; i++)
      await store.storeEvent("stream", { jsonrpc: "2.0", method: "m", params: { text: "y".repeat(100) } });
    expect(await canResume(session, first)).toBe(false);
    expect(await canResume(session, undefined)).toBe(true);
    expect(await canResume(newHttpSession("t", transport, undefined, undefined), first)).toBe(true);
  });

  it("checks a numeric option, naming it", () => {
    expect(checkedOption("maxSessions", 5, 1)).toBe(5);
    expect(() => checkedOption("maxSessions", 0, 1)).toThrow(
      "HTTP option maxSessions must be a number >= 1, got 0",
    );
  });
});
