import { type McpAppOptions, McpModule } from "frugal-mcp";
import { LatencyMetrics } from "./latency-metrics.interceptor.js";
import { NotesService } from "./notes.service.js";
import { OpsService } from "./ops.service.js";

/**
 * The module. `LatencyMetrics` is a provider so that one instance serves as the app-wide
 * interceptor and as `OpsService`'s dependency (an interceptor class that is not a
 * provider is still built once per app, but only for the interceptor role).
 */
@McpModule({ services: [NotesService, OpsService], providers: [LatencyMetrics] })
export class NotesModule {}

/** The app's options: `LatencyMetrics` around every call, before the per-method scope checks. */
export const appOptions = {
  name: "secured-notes",
  version: "1.0.0",
  interceptors: [LatencyMetrics],
} satisfies McpAppOptions;
