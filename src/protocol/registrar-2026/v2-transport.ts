/**
 * A transport of the SDK v2 (`Transport` of `@modelcontextprotocol/server`: its
 * `InMemoryTransport`, a stdio or socket transport), as `McpApp2026.connectAnyEra` takes it.
 *
 * Written out by shape rather than imported: the SDK v2 packages are optional peer
 * dependencies, and frugal-mcp's published types must compile without them
 * (`skipLibCheck: false` in a project that serves MCP up to 2025-11-25 only). Any v2
 * transport fits it; the app hands it to the SDK v2 as it is.
 *
 * @example
 * ```ts
 * import { InMemoryTransport } from "@modelcontextprotocol/server";
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await app.connectAnyEra(serverSide); // app: McpApp2026
 * ```
 */
export interface V2Transport {
  /** Starts receiving messages. */
  start(): Promise<void>;
  /** Sends one JSON-RPC message (`options`: the SDK v2's `TransportSendOptions`). */
  send(message: object, options?: object): Promise<void>;
  /** Closes the connection. */
  close(): Promise<void>;
  /** Set by the SDK v2 while it serves the transport. */
  onclose?: (() => void) | undefined;
  /** Set by the SDK v2 while it serves the transport. */
  onerror?: ((error: Error) => void) | undefined;
  /** The session id, for transports that have one. */
  sessionId?: string | undefined;
}
