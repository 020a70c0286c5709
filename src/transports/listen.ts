import type { AddressInfo } from "node:net";
import { type ConnectionLimitOptions, capConnections, serverTimeouts } from "./connection-limits.js";
import type { HttpHandler, HttpHandlerOptions, HttpHandlerStats } from "./http-handler.js";
import { sendJsonRpcError } from "./json-rpc-response.js";
import type { SessionHost } from "./session-host.js";
import { StdioTransport } from "./stdio-transport.js";

/** Options of `app.listen`. */
export type ListenOptions =
  | { transport: "stdio" }
  | ({
      transport: "http";
      /** Port to listen on; 0 picks a free one (default 3000). */
      port?: number | undefined;
      /** Interface to bind (default 127.0.0.1: loopback only). */
      host?: string | undefined;
      /** Endpoint path (default `/mcp`). */
      path?: string | undefined;
    } & HttpHandlerOptions &
      ConnectionLimitOptions);

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

/**
 * Starts a listener for `app` and returns how to stop it. Over HTTP, `frontDoor` makes the
 * app's one front door (every era behind it); the listener adds what only a server owns:
 * the connection cap and the header, request and keep-alive timeouts.
 */
export async function listen(
  app: SessionHost,
  options: ListenOptions,
  frontDoor: (options: HttpHandlerOptions) => HttpHandler,
): Promise<{ url?: string; close(): Promise<void>; stats?(): HttpHandlerStats }> {
  if (options.transport === "stdio") {
    const transport = new StdioTransport(app.logger);
    await app.connect(transport);
    return { close: () => transport.close() };
  }
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  let handlerOptions: HttpHandlerOptions = options;
  if (!LOOPBACK_HOSTS.has(host) && options.allowedHosts === undefined) {
    app.logger.warn(
      `listening on ${host} without allowedHosts: the Host check is off; set allowedHosts to protect against DNS rebinding`,
    );
    handlerOptions = { ...options, allowedHosts: "any" };
  }
  const handler = frontDoor(handlerOptions);
  // node:http is cheap to import (about 2 ms), but only HTTP needs it.
  const { createServer } = await import("node:http");
  const server = createServer(serverTimeouts(options), (req, res) => {
    const pathname = (req.url ?? "/").split("?")[0];
    if (pathname !== path)
      return sendJsonRpcError(res, 404, -32000, `Not found: the MCP endpoint is ${path}`);
    void handler(req, res);
  });
  capConnections(server, options, app.logger);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 3000, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}${path}`;
  app.logger.info(`MCP server listening on ${url}`);
  return {
    url,
    stats: () => handler.stats(),
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
