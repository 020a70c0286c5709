import { FRUGAL_ATTRIBUTES } from "../observability/mcp-attributes.js";
import { McpTelemetry } from "../observability/mcp-telemetry.js";
import type { TokenCounter } from "../tokenizer/token-counter.js";
import { CatalogueViews } from "./catalogue-views.js";
import { OperationCounters } from "./operation-stats.js";
import { PrincipalTokens } from "./principal-tokens.js";
import { RereadTracker } from "./reread-tracker.js";

/** Tokens a tool returned: how many calls were counted and their total. */
interface ToolTokens {
  calls: number;
  tokens: number;
}

/**
 * Counters shared by the pipeline stages of one app, read by `app.stats()`. Plain
 * numbers, no locking: Node runs stages on one thread. The app's OpenTelemetry tracer and
 * instruments live here too, obtained once per app.
 */
export class AppMetrics {
  cacheHits = 0;
  cacheMisses = 0;
  /** Calls that waited for an identical running miss instead of running the handler. */
  cacheCoalesced = 0;
  /** Cache backend failures (the call was served from the source). */
  cacheBackendErrors = 0;
  /** Results left out of the cache because an invalidation arrived while they were computed. */
  cacheStaleDiscards = 0;
  /** Sources of `resources/list` that failed (the others were still listed). */
  resourceListErrors = 0;
  /** Failures of `resources/list` per source (a template's URI, the ephemeral storage). */
  readonly listFailures = new Map<string, number>();
  readonly tokensByTool = new Map<string, ToolTokens>();
  /** Per tool name, resource URI or template, and prompt name (`app.stats().operations`). */
  readonly operations = new Map<string, OperationCounters>();
  /** Which owner read which resource URI, to count re-reads (bounded). */
  readonly rereads = new RereadTracker();
  readonly telemetry = new McpTelemetry();
  /** `tools/list` answers per view and what each view costs a model (`app.stats().catalogue`). */
  readonly catalogue: CatalogueViews;
  /** Calls and tokens out per owner, bounded (`app.stats().principals`). */
  readonly principals = new PrincipalTokens();

  /** `counter` counts what each view of the tool list costs; without one, views are only counted. */
  constructor(counter?: TokenCounter) {
    this.catalogue = new CatalogueViews(counter);
  }

  recordTokens(tool: string, tokens: number): void {
    const entry = this.tokensByTool.get(tool) ?? { calls: 0, tokens: 0 };
    entry.calls++;
    entry.tokens += tokens;
    this.tokensByTool.set(tool, entry);
  }

  /** The counters of one operation, made on its first call. */
  operation(key: string): OperationCounters {
    let counters = this.operations.get(key);
    if (!counters) {
      counters = new OperationCounters();
      this.operations.set(key, counters);
    }
    return counters;
  }

  /** Counts a source of `resources/list` that failed (the listing went on without it). */
  recordListFailure(source: string): void {
    this.resourceListErrors++;
    this.listFailures.set(source, (this.listFailures.get(source) ?? 0) + 1);
    this.telemetry.listFailures.add(1, { [FRUGAL_ATTRIBUTES.source]: source });
  }
}
