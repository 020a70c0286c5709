import type { ResultCache } from "../cache/result-cache.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import type { CatalogueStats } from "../metrics/catalogue-views.js";
import type { OperationStats } from "../metrics/operation-stats.js";
import type { PrincipalStats } from "../metrics/principal-tokens.js";

/** Counters readable with `app.stats()`. */
export interface AppStats {
  /**
   * Sessions connected now. On a `protocol: "2026-07-28"` app, also its open serving units: a
   * stdio connection, and each 2026-07-28 request while it is answered.
   */
  sessions: number;
  /** Calls running now. */
  inFlight: number;
  /** Bytes the in-memory event stores of HTTP sessions keep now so clients can resume streams. */
  eventStoreBytes: number;
  cache: {
    hits: number;
    misses: number;
    /** Calls that waited for an identical running miss instead of running the handler. */
    coalesced: number;
    /** Entries the cache evicted to stay within its size. */
    evictions: number;
    /** Cache backend failures (those calls were served from the source). */
    backendErrors: number;
    /** Results kept out of the cache because an invalidation arrived while they were computed. */
    staleDiscards: number;
  };
  /** Tokens returned per tool (counted under a budget): calls counted and total tokens. */
  tokens: Record<string, { calls: number; tokens: number }>;
  resources: {
    /** Sources of `resources/list` (a template's `list`, the ephemeral storage) that failed; the rest was listed. */
    listErrors: number;
    /** The same failures per source: a template's URI, or `"ephemeral storage"`. */
    listFailures: Record<string, number>;
  };
  /**
   * Per operation, keyed by tool name, resource URI or template, and prompt name (a prompt
   * named like a tool is `prompt:<name>`; reads of spilled results are keyed
   * `ephemeral://<tool>/{id}`, other stored resources `(stored resources)`). An operation
   * appears once a call of it has completed.
   */
  operations: Record<string, OperationStats>;
  /**
   * What `tools/list` costs a model, per distinct view (the set of tools a caller sees): each
   * view's tokens (counted once, in the background, after this is first read) and how often
   * it was listed. At most 32 views are kept apart; listings of any other are counted together.
   */
  catalogue: CatalogueStats;
  /**
   * Calls answered and tokens out (where a budget counted them) per owner, as `ctx.owner`
   * names it: `principal:<name>`, or `session:<id>` for an anonymous session. The first 1,000 owners are kept apart; the rest
   * are counted together in `others`.
   */
  principals: PrincipalStats;
}

/** What `app.stats()` reads besides the app's metrics: its sessions and HTTP handlers, now. */
export interface LiveCounts {
  sessions: number;
  inFlight: number;
  eventStoreBytes: number;
}

/** `app.stats()`: a snapshot, so a caller changing it changes nothing. */
export function appStats(live: LiveCounts, metrics: AppMetrics, cache: ResultCache): AppStats {
  return {
    ...live,
    cache: {
      hits: metrics.cacheHits,
      misses: metrics.cacheMisses,
      coalesced: metrics.cacheCoalesced,
      evictions: cache.evictions ?? 0,
      backendErrors: metrics.cacheBackendErrors,
      staleDiscards: metrics.cacheStaleDiscards,
    },
    tokens: Object.fromEntries([...metrics.tokensByTool].map(([tool, t]) => [tool, { ...t }])),
    resources: {
      listErrors: metrics.resourceListErrors,
      listFailures: Object.fromEntries(metrics.listFailures),
    },
    operations: operationStats(metrics),
    catalogue: metrics.catalogue.stats(),
    principals: metrics.principals.stats(),
  };
}

/** A snapshot of every operation that completed a call. */
function operationStats(metrics: AppMetrics): Record<string, OperationStats> {
  const operations: Record<string, OperationStats> = {};
  for (const [key, counters] of metrics.operations) {
    if (counters.calls > 0) operations[key] = counters.snapshot();
  }
  return operations;
}
