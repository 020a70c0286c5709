import { McpService, Tool, UseInterceptors } from "frugal-mcp";
import { LatencyMetrics } from "./latency-metrics.interceptor.js";
import { RequireScope } from "./require-scope.interceptor.js";

/**
 * Operations tools, all behind `metrics:read` (a class-level `@UseInterceptors` guards
 * every method). `LatencyMetrics` is injected here and is the very instance the app runs
 * as an interceptor, because the module registers it as a provider.
 */
@UseInterceptors(RequireScope("metrics:read"))
@McpService()
export class OpsService {
  constructor(private readonly latency: LatencyMetrics) {}

  @Tool({
    description: "Calls, errors and p50/p95 latency (ms) of every tool since the server started",
    annotations: { readOnlyHint: true },
  })
  metrics() {
    return { tools: this.latency.snapshot() };
  }
}
