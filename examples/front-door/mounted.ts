import "reflect-metadata";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpFactory } from "frugal-mcp";
import { TransfersModule } from "./app.module.js";
import { authenticate } from "./auth.js";

// The same front door mounted in a server of your own: the handler holds the connection cap and the
// header/request timeouts itself (listen sets them on the server it creates), and `attach` holds them
// from the server's very first connection.
const app = await McpFactory.create(TransfersModule, {
  name: "transfers",
  version: "1.0.0",
  protocol: "2026-07-28",
  cursorSecret: process.env.CURSOR_SECRET,
});
const handler = app.httpHandler({
  authenticate,
  maxConnections: 256,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: Number(process.env.REQUEST_TIMEOUT_MS ?? 20_000),
});
const server = createServer((req, res) => {
  if (req.url?.split("?")[0] !== "/mcp") return void res.writeHead(404).end();
  void handler(req, res);
});
handler.attach(server);
const port = Number(process.env.PORT ?? 3006);
server.listen(port, "127.0.0.1", () => {
  const { port: bound } = server.address() as AddressInfo;
  process.stderr.write(`mounted front door on http://127.0.0.1:${bound}/mcp\n`);
});
const stop = () => void app.close().then(() => server.close(() => process.exit(0)));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
