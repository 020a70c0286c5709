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
  `try: npx @modelcontextprotocol/inspector --cli ${url} --transport http --header "Authorization: Bearer demo-alice" --method tools/call --tool-name whoami\n`,
);
const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
