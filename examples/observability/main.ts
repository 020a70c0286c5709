import "reflect-metadata";
import { McpFactory } from "frugal-mcp";
import { MetricsModule } from "../metrics/app.module.js";
import { registerTelemetry } from "./telemetry.js";

// The SDK first, then the app. Spans and metrics print to the console; see README.md for
// an OpenTelemetry collector. Streamable HTTP on PORT (default 3004).
const stopTelemetry = registerTelemetry();
const app = await McpFactory.create(MetricsModule, { name: "metrics", version: "1.0.0" });
await app.listen({ transport: "http", port: Number(process.env.PORT ?? 3004) });

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, async () => {
    // What the statistics saw, per tool and resource, before the process goes.
    console.table(app.stats().operations);
    await app.close();
    await stopTelemetry();
    process.exit(0);
  });
}
