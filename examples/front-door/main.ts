import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { TransfersModule } from "./app.module.js";
import { authenticate } from "./auth.js";

// One front door for both protocol eras: a 2025-11-25 session and a 2026-07-28 request pass the
// same host check, connection cap, timeouts, body limit and authentication.
const app = await McpFactory.create(TransfersModule, {
  name: "transfers",
  version: "1.0.0",
  protocol: "2026-07-28",
  cursorSecret: process.env.CURSOR_SECRET, // also encrypts the request state that carries the PIN
});
const { url } = await app.listen({
  transport: "http",
  port: Number(process.env.PORT ?? 3005),
  authenticate,
  maxConnections: 256,
  headersTimeoutMs: 5_000,
  requestTimeoutMs: 20_000,
});
process.stderr.write(
  [
    `without a token every request is refused (401): npx -y @modelcontextprotocol/inspector@2 --cli ${url} --transport http --method tools/list`,
    `with one (2026-07-28, raw): curl -s ${url} -H 'content-type: application/json' -H 'accept: application/json, text/event-stream' -H 'mcp-protocol-version: 2026-07-28' -H 'mcp-method: tools/call' -H 'mcp-name: whoami' -H 'authorization: Bearer demo-alice' -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"curl","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}'`,
    "",
  ].join("\n"),
);
const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
