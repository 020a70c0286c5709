import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { MetricsModule } from "./app.module.js";

// `node main.js --stdio` for desktop clients; otherwise Streamable HTTP on PORT (default 3002).
// REDIS_URL: share the cache (and invalidations) between instances; METRICS_CONFIG: a JSON
// file overriding the config, watched for changes. See README.md.
const app = await McpFactory.create(MetricsModule, {
  name: "metrics",
  version: "1.0.0",
  // Connecting to Redis can take longer than the default 500 ms on a cold start; if it is
  // not ready in time the app starts anyway and serves from the store until it is.
  readyTimeoutMs: 2_000,
});
if (process.argv.includes("--stdio")) {
  await app.listen({ transport: "stdio" });
} else {
  await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3002) });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
