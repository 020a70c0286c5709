/**
 * The one adapter into SDK 1.x internals (src/transports/session-revival.ts): pins what it
 * relies on, so an SDK upgrade that moves it fails here, by name, rather than serving a
 * half-rebuilt session. test/e2e/shared-sessions.test.ts drives the whole path.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { reviveServer, reviveTransport } from "../../../src/transports/session-revival.js";

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

  it("gives a fresh server the client's declared capabilities and clientInfo", () => {
    const server = new Server({ name: "s", version: "1" }, { capabilities: { tools: {} } });
    const clientCapabilities = { elicitation: { form: {} } };
    reviveServer(server, { clientCapabilities, clientInfo: { name: "c", version: "2" } });
    expect(server.getClientCapabilities()).toBe(clientCapabilities);
    expect(server.getClientVersion()).toEqual({ name: "c", version: "2" });
  });
});
