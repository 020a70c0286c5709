import type { InjectionToken } from "tsyringe";
import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import type { AppMetrics } from "../metrics/app-metrics.js";
import { type CallOutcome, OutcomeKey } from "../pipeline/call-outcome.js";
import type { CapabilityStageFunction } from "../pipeline/capability.js";
import { isErrorResult } from "../pipeline/outcomes.js";
import { cacheKey } from "./cache-key.js";
import type { CacheSpec } from "./cache-spec.js";
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

/** What the app gives the cache stage (`CapabilityServices.resolve(CACHE_STAGE)`). */
export const CACHE_STAGE: InjectionToken<CacheStageDeps> = Symbol.for("frugal-mcp.CACHE_STAGE");

/** True when the call was served from the cache (the app's counters and traces read it). */
export const CACHE_HIT = new OutcomeKey<boolean>("cache.hit");
/** True when the cache had no answer and the call ran the handler (not one that joined a running miss). */
export const CACHE_MISS = new OutcomeKey<boolean>("cache.miss");

/**
 * Under `@Cached`: serves a stored shaped result, or runs the rest of the pipeline once
 * for all identical concurrent calls and stores what it shaped. A call that starts after
 * an invalidation never joins a miss that began before it: that miss is stale, so the call
 * runs its own (read-after-write). Errors, `isError` results
 * and results a later stage marked not `keepable` (spilled ones) are never stored. A failing
 * cache backend never fails a call: it is counted, logged, and the call is served from
 * the source (without a write, which would only wait for the same failing backend). While
 * an invalidation of the namespace may have been lost (`CacheTrust`), calls skip the
 * cache altogether.
 */
export function cacheStageFor(
  spec: CacheSpec,
  namespace: string,
  deps: CacheStageDeps,
): CapabilityStageFunction {
  const { cache, clock, metrics, flights, logger, trust } = deps;
  const ownerScoped = spec.scope === "owner";

  return async (call, next) => {
    const key = cacheKey(namespace, call, ownerScoped ? call.ctx.owner : null);
    const trusted = trust?.trusts(namespace) ?? true;
    const read = trusted ? await failOpen(deps, namespace, "read", () => cache.get(key)) : undefined;
    const hit = read === FAILED ? undefined : read;
    const now = clock.now();
    if (hit && hit.expiresAt > now) {
      recordHit(deps, call.outcome, key, hit.expiresAt - now, !ownerScoped);
      return hit.value;
    }
    // Only a flight a new caller may share: never one an acknowledged write made stale (it
    // would answer with what the write replaced), nor one every caller cancelled.
    const running = flights.get(key);
    if (running) {
      metrics.cacheCoalesced++;
      running.join(call.ctx.signal);
      return running.promise;
    }
    metrics.cacheMisses++;
    CACHE_MISS.set(call.outcome, true);
    logger.debug(`cache miss ${key}`);
    const flight = flights.start(key, namespace, call.input, call.ctx.signal);
    call.signal = flight.signal;
    try {
      const result = await next();
      if (flight.stale) metrics.cacheStaleDiscards++;
      else if (
        call.outcome.keepable &&
        !isErrorResult(result) &&
        read !== FAILED &&
        trusted &&
        (trust?.trusts(namespace) ?? true)
      ) {
        const entry = {
          value: result,
          namespace,
          input: call.input,
          expiresAt: clock.now() + spec.ttl,
        };
        const wrote = await failOpen(deps, namespace, "write", () => cache.set(key, entry, spec.ttl));
        if (wrote !== FAILED) keptFor(call.outcome, spec.ttl, !ownerScoped);
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

/** What `failOpen` answers when the backend failed (a cached value may be anything else). */
const FAILED = Symbol("failed");

/**
 * Runs one cache backend operation so that its failure never fails the call: it is counted
 * and logged, and the call goes on from the source.
 */
async function failOpen<T>(
  { metrics, logger }: CacheStageDeps,
  namespace: string,
  what: string,
  operation: () => Promise<T>,
): Promise<T | typeof FAILED> {
  try {
    return await operation();
  } catch (error) {
    metrics.cacheBackendErrors++;
    logger.error(`cache ${what} failed for ${namespace}; serving from the source`, error);
    return FAILED;
  }
}

/** Counts, marks and logs a call served from the cache, fresh for `freshForMs` more. */
function recordHit(
  { metrics, logger }: CacheStageDeps,
  outcome: CallOutcome,
  key: string,
  freshForMs: number,
  shared: boolean,
): void {
  metrics.cacheHits++;
  CACHE_HIT.set(outcome, true);
  keptFor(outcome, freshForMs, shared);
  logger.debug(`cache hit ${key}`);
}

/** Records how long the result just served stays fresh, and for whom (the 2026-07-28 cache hints). */
function keptFor(outcome: CallOutcome, ms: number, shared: boolean): void {
  outcome.freshForMs = ms;
  outcome.sharedAcrossOwners = shared;
}
