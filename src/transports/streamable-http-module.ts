/**
 * The SDK's Streamable HTTP transport module, loaded when HTTP is first served (see
 * `loadStreamableHttp`).
 */
type StreamableHttpModule = typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");
let streamableHttp: StreamableHttpModule | undefined;
let streamableHttpLoading: Promise<StreamableHttpModule> | undefined;

/**
 * Imports the SDK's Streamable HTTP transport when HTTP is first served, not at start-up:
 * it (and the web-standard HTTP layer under it) costs about 30 ms that a stdio server
 * never needs. Once loaded, awaiting it takes a microtask.
 */
export function loadStreamableHttp(): Promise<StreamableHttpModule> {
  streamableHttpLoading ??= import("@modelcontextprotocol/sdk/server/streamableHttp.js").then(
    (module) => {
      streamableHttp = module;
      return module;
    },
    (error: unknown) => {
      streamableHttpLoading = undefined;
      throw error;
    },
  );
  return streamableHttpLoading;
}

/** The transport class; every request awaits `loadStreamableHttp()` before it gets here. */
export function streamableHttpTransport(): StreamableHttpModule["StreamableHTTPServerTransport"] {
  if (!streamableHttp) throw new Error("the Streamable HTTP transport is not loaded yet");
  return streamableHttp.StreamableHTTPServerTransport;
}
