import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { ConformanceModule } from "./app.module.js";
import { Conformance2026Module } from "./app-2026.module.js";
import { WATCH_INTERVAL_MS } from "./watched-resource.js";

// `node main.js --stdio` for stdio; otherwise Streamable HTTP on 127.0.0.1:PORT (default 3004).
// WATCH_INTERVAL_MS (default 3000; 0 turns it off): how often test://watched-resource changes.
// MCP_PROTOCOL=2026-07-28 serves MCP 2026-07-28 as well as 2025-11-25.
const serve2026 = process.env.MCP_PROTOCOL === "2026-07-28";
const app = await McpFactory.create(serve2026 ? Conformance2026Module : ConformanceModule, {
  name: "frugal-mcp-conformance-server",
  version: "1.0.0",
  providers: [{ provide: WATCH_INTERVAL_MS, useValue: Number(process.env.WATCH_INTERVAL_MS ?? 3000) }],
  // MCP_PROTOCOL=2026-07-28: serve that revision too (the SDK v2 registrar), as the suite's
  // `--requirements 2026-07-28` scenarios need.
  ...(serve2026 ? { protocol: "2026-07-28" as const } : {}),
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
