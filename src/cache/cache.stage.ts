import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import type { CallOutcome, Stage } from "../pipeline/invocation.js";
import type { OperationDefinition } from "../pipeline/operation.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import type { StageFactory } from "../pipeline/stage-factory.js";
import { cacheKey } from "./cache-key.js";
import type { CacheTrust } from "./cache-trust.js";
import type { ResultCache } from "./result-cache.js";
import type { SingleFlight } from "./single-flight.js";

/** What the cache stage works with, shared by every cached operation of an app. */
export interface CacheStageDeps {
  readonly cache: ResultCache;
  readonly clock: Clock;
  /** Running misses, so identical concurrent calls run the handler once. */
  readonly flights: SingleFlight;
  readonly metrics: AppMetrics;
  readonly logger: Logger;
  /** Namespaces whose entries may be stale after a lost invalidation (neither served nor stored). */
  readonly trust?: CacheTrust;
}

/**
 * Under `@Cached`: serves a stored shaped result, or runs the rest of the pipeline once
 * for all identical concurrent calls and stores what it shaped. A call that starts after
 * an invalidation never joins a miss that began before it: that miss is stale, so the call
 * runs its own (read-after-write). Errors, `isError` results
 * and results a later stage marked uncacheable (spilled ones) are never stored. A failing
 * cache backend never fails a call: it is counted, logged, and the call is served from
 * the source (without a write, which would only wait for the same failing backend). While
 * an invalidation of the namespace may have been lost (`CacheTrust`), calls skip the
 * cache altogether.
 */
export function cacheStage(deps: CacheStageDeps): StageFactory {
  return { name: "cache", create: (definition) => cacheFor(definition, deps) };
}

function cacheFor(definition: OperationDefinition, deps: CacheStageDeps): Stage | undefined {
  const spec = definition.cache;
  if (!spec) return undefined;
  const { cache, clock, metrics, flights, logger, trust } = deps;
  const namespace = definition.where;
  const ownerScoped = spec.scope === "owner";
  const failed = Symbol("failed");
  const failOpen = async <T>(what: string, operation: () => Promise<T>): Promise<T | typeof failed> => {
    try {
      return await operation();
    } catch (error) {
      metrics.cacheBackendErrors++;
      logger.error(`cache ${what} failed for ${namespace}; serving from the source`, error);
      return failed;
    }
  };

  return async (invocation, next) => {
    const key = cacheKey(namespace, invocation, ownerScoped ? invocation.ctx.owner : null);
    const trusted = trust?.trusts(namespace) ?? true;
    const read = trusted ? await failOpen("read", () => cache.get(key)) : undefined;
    const hit = read === failed ? undefined : read;
    const now = clock.now();
    if (hit && hit.expiresAt > now) {
      metrics.cacheHits++;
      invocation.outcome.cacheHit = true;
      keptFor(invocation.outcome, hit.expiresAt - now, !ownerScoped);
      logger.debug(`cache hit ${key}`);
      return hit.value;
    }
    // Only a flight a new caller may share: never one an acknowledged write made stale (it
    // would answer with what the write replaced), nor one every caller cancelled.
    const running = flights.get(key);
    if (running) {
      metrics.cacheCoalesced++;
      running.join(invocation.ctx.signal);
      return running.promise;
    }
    metrics.cacheMisses++;
    invocation.outcome.cacheMiss = true;
    logger.debug(`cache miss ${key}`);
    const flight = flights.start(key, namespace, invocation.input, invocation.ctx.signal);
    invocation.signal = flight.signal;
    try {
      const result = await next();
      if (flight.stale) metrics.cacheStaleDiscards++;
      else if (
        invocation.outcome.cacheable &&
        !isErrorResult(result) &&
        read !== failed &&
        trusted &&
        (trust?.trusts(namespace) ?? true)
      ) {
        const entry = {
          value: result,
          namespace,
          input: invocation.input,
          expiresAt: clock.now() + spec.ttl,
        };
        const wrote = await failOpen("write", () => cache.set(key, entry, spec.ttl));
        if (wrote !== failed) keptFor(invocation.outcome, spec.ttl, !ownerScoped);
      }
      flight.resolve(result);
      return result;
    } catch (error) {
      flight.reject(error);
      throw error;
    } finally {
      flights.finish(key, flight);
    }
  };
}

/** Records how long the result just served stays fresh, and for whom (the 2026-07-28 cache hints). */
function keptFor(outcome: CallOutcome, ms: number, shared: boolean): void {
  outcome.freshForMs = ms;
  outcome.sharedAcrossOwners = shared;
}
