import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { ConformanceModule } from "./app.module.js";
import { WATCH_INTERVAL_MS } from "./watched-resource.js";

// `node main.js --stdio` for stdio; otherwise Streamable HTTP on 127.0.0.1:PORT (default 3004).
// WATCH_INTERVAL_MS (default 3000; 0 turns it off): how often test://watched-resource changes.
const app = await McpFactory.create(ConformanceModule, {
  name: "frugal-mcp-conformance-server",
  version: "1.0.0",
  providers: [{ provide: WATCH_INTERVAL_MS, useValue: Number(process.env.WATCH_INTERVAL_MS ?? 3000) }],
});
if (process.argv.includes("--stdio")) {
  await app.listen({ transport: "stdio" });
} else {
  // SEP-1699: priming events carry `retry`, so a client whose stream the server closes
  // (test_reconnection) knows when to come back with Last-Event-ID.
  await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3004), retryIntervalMs: 5000 });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
