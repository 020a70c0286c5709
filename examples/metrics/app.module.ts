import { FileWatchSource, McpModule, type ProviderEntry } from "frugal-mcp";
import { cacheBackend } from "./cache-backend.js";
import { MetricsService } from "./metrics.service.js";
import { MetricsStore } from "./metrics.store.js";

/**
 * When `METRICS_CONFIG` names a JSON file, a change to that file emits "config.changed",
 * which drops the cached `config://metrics` and notifies its subscribers: the resource can
 * be cached for an hour and still never be stale.
 */
function configWatch(path = process.env.METRICS_CONFIG): ProviderEntry[] {
  if (!path) return [];
  return [
    {
      provide: "metrics-config-watch",
      useFactory: () => new FileWatchSource({ path, event: "config.changed" }),
    },
  ];
}

/**
 * The metrics module. With `REDIS_URL` set, the cache and the event bus are Redis, so
 * several instances share cached reports and invalidations (see cache-backend.ts);
 * otherwise both stay in memory. The environment is read when this file is imported.
 */
@McpModule({
  services: [MetricsService],
  providers: [MetricsStore, ...cacheBackend({ redisUrl: process.env.REDIS_URL }), ...configWatch()],
})
export class MetricsModule {}
