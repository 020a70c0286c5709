import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { LogSearchModule } from "./app.module.js";

// `node main.js --stdio` for desktop clients; otherwise Streamable HTTP on PORT (default 3003).
// Set CURSOR_SECRET (16+ bytes) so `tail` cursors survive restarts and work across instances.
const app = await McpFactory.create(LogSearchModule, {
  name: "log-search",
  version: "1.0.0",
  cursorSecret: process.env.CURSOR_SECRET,
});
if (process.argv.includes("--stdio")) {
  await app.listen({ transport: "stdio" });
} else {
  await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3003) });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
