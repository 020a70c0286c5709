/** Tokens a tool returned: how many calls were counted and their total. */
export interface ToolTokens {
  calls: number;
  tokens: number;
}

/**
 * Counters shared by the pipeline stages of one app, read by `app.stats()`. Plain
 * numbers, no locking: Node runs stages on one thread.
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
  readonly tokensByTool = new Map<string, ToolTokens>();

  recordTokens(tool: string, tokens: number): void {
    const entry = this.tokensByTool.get(tool) ?? { calls: 0, tokens: 0 };
    entry.calls++;
    entry.tokens += tokens;
    this.tokensByTool.set(tool, entry);
  }
}
