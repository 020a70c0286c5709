/**
 * The one adapter between shared sessions and the internals of `@modelcontextprotocol/sdk`
 * 1.x. A 2025-11-25 session opened on one instance is served by another by rebuilding it
 * there: a new SDK transport and server that behave as if they had answered the session's
 * `initialize` themselves. SDK 1.x has no public way to do this, so this file, and only
 * this file, sets the private state that `initialize` would have set:
 *
 * - `StreamableHTTPServerTransport` wraps a `WebStandardStreamableHTTPServerTransport`
 *   (`_webStandardTransport`) whose `sessionId` and `_initialized` decide whether a request
 *   carrying `Mcp-Session-Id` is served (else 400 "Server not initialized" or 404).
 * - `Server` keeps the client's declared capabilities (`_clientCapabilities`, read by
 *   `getClientCapabilities()` and by its checks before a request to the client) and its
 *   `clientInfo` (`_clientVersion`, read by `getClientVersion()`).
 *
 * - The transport names a session's standalone GET stream `_GET_stream` in its event store
 *   (`STANDALONE_STREAM_ID`): a GET resuming it (not a call's stream) makes an instance the
 *   holder of the session's notifications.
 *
 * The negotiated protocol version is not kept by SDK 1.x after `initialize` (each request
 * names its own in `Mcp-Protocol-Version`, which the transport checks against the versions
 * it supports), so nothing is set for it; the record keeps it for the day the SDK does.
 *
 * Each function checks the shape it relies on and fails with a message naming the SDK
 * when a new SDK version moved it, rather than serving a half-rebuilt session. The tests
 * of shared sessions (test/e2e/shared-sessions.test.ts) pin the behaviour.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { ClientCapabilities, Implementation } from "@modelcontextprotocol/sdk/types.js";

/** What the rebuilt server needs from the session's record. */
export interface RevivedClient {
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: Implementation | undefined;
}

interface WebStandardTransportState {
  sessionId: string | undefined;
  sessionIdGenerator: (() => string) | undefined;
  _initialized: boolean;
}

interface ServerState {
  _clientCapabilities: ClientCapabilities | undefined;
  _clientVersion: Implementation | undefined;
}

/** The stream id SDK 1.x gives a session's standalone GET stream in its event store. */
export const STANDALONE_STREAM_ID = "_GET_stream";

const SDK_CHANGED =
  "@modelcontextprotocol/sdk changed its internals: frugal-mcp cannot rebuild a shared session on this instance (src/transports/session-revival.ts); pin @modelcontextprotocol/sdk to a 1.x version frugal-mcp supports";

/** Marks a fresh transport as the one of session `sessionId`, already initialized. */
export function reviveTransport(transport: StreamableHTTPServerTransport, sessionId: string): void {
  const inner = (transport as unknown as { _webStandardTransport?: Partial<WebStandardTransportState> })
    ._webStandardTransport;
  if (
    typeof inner !== "object" ||
    inner === null ||
    inner._initialized !== false ||
    typeof inner.sessionIdGenerator !== "function"
  ) {
    throw new Error(`${SDK_CHANGED} (the transport has no _webStandardTransport._initialized)`);
  }
  const state = inner as WebStandardTransportState;
  state.sessionId = sessionId;
  state._initialized = true;
}

/** Gives a fresh server what the session's client declared at `initialize`. */
export function reviveServer(server: Server, client: RevivedClient): void {
  if (typeof (server as unknown as { _oninitialize?: unknown })._oninitialize !== "function") {
    throw new Error(`${SDK_CHANGED} (the server has no _oninitialize)`);
  }
  const state = server as unknown as ServerState;
  state._clientCapabilities = client.clientCapabilities;
  state._clientVersion = client.clientInfo;
  if (server.getClientCapabilities() !== client.clientCapabilities) {
    throw new Error(`${SDK_CHANGED} (getClientCapabilities() does not read _clientCapabilities)`);
  }
}
