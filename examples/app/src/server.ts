import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type McpApp, McpFactory } from "frugal-mcp";
import { AppModule } from "./app.module.js";
import { appOptions } from "./app-options.js";
import { withBearerAuth } from "./auth/bearer-auth.js";
import type { AppConfig } from "./config/app-config.js";

/** A running flagship over Streamable HTTP. */
export interface RunningServer {
  app: McpApp;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** Stops listening, then closes the app (drains calls, closes the database and Redis). */
  close(): Promise<void>;
}

/**
 * Builds the flagship and serves it over Streamable HTTP on `host:port` (port 0 picks a
 * free one), behind the demo's bearer-token check (`withBearerAuth`: anonymous callers
 * read, `demo-admin` may write). `main.ts` and the demo both start it this way.
 *
 * @example
 * ```ts
 * const server = await startServer(readAppConfig(process.env), { port: 3000 });
 * console.log(server.url);
 * await server.close();
 * ```
 */
export async function startServer(
  config: AppConfig,
  { port = 3000, host = "127.0.0.1" }: { port?: number; host?: string } = {},
): Promise<RunningServer> {
  const app = await McpFactory.create(AppModule, appOptions(config));
  const handler = app.httpHandler();
  const http = createServer(withBearerAuth(handler));
  // The connection cap and the header/request timeouts, from this server's first connection.
  handler.attach(http);
  try {
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(port, host, () => resolve());
    });
  } catch (error) {
    await app.close();
    throw (error as NodeJS.ErrnoException).code === "EADDRINUSE"
      ? new Error(`port ${port} is in use; start with PORT=<another port> (or stop what holds it)`)
      : error;
  }
  const { port: bound } = http.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    app,
    url: `http://${host}:${bound}/mcp`,
    close() {
      closing ??= (async () => {
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
        await app.close();
      })();
      return closing;
    },
  };
}
