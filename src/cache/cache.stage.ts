import type { StageFactory } from "../pipeline/stage-factory.js";
import { CACHE, CLOCK } from "../tokens.js";
import { cacheKey } from "./cache-key.js";
import { isCacheable } from "./cacheable.js";
import type { ResultCache } from "./result-cache.js";

/**
 * Under `@Cached`: serves a stored shaped result, or runs the rest of the pipeline once
 * for all identical concurrent calls and stores what it shaped. A failing cache backend
 * never fails a call: it is counted, logged, and the call is served from the source.
 */
export const cacheStage: StageFactory = {
  name: "cache",
  create(definition, env) {
    const options = definition.metadata.cached;
    if (!options) return undefined;
    const cache = env.resolve(CACHE) as ResultCache;
    const clock = env.resolve(CLOCK);
    const { metrics, flights, logger } = env;
    const namespace = definition.where;
    const ownerScoped = (options.scope ?? (definition.kind === "tool" ? "owner" : "global")) === "owner";
    const failOpen = async <T>(what: string, operation: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await operation();
      } catch (error) {
        metrics.cacheBackendErrors++;
        logger.error(`cache ${what} failed for ${namespace}; serving from the source`, error);
        return undefined;
      }
    };

    return async (invocation, next) => {
      const key = cacheKey(namespace, invocation, ownerScoped ? invocation.ctx.owner : null);
      const hit = await failOpen("read", () => cache.get(key));
      if (hit && hit.expiresAt > clock.now()) {
        metrics.cacheHits++;
        logger.debug(`cache hit ${key}`);
        return hit.value;
      }
      const running = flights.get(key);
      if (running) {
        metrics.cacheCoalesced++;
        running.join(invocation.ctx.signal);
        return running.promise;
      }
      metrics.cacheMisses++;
      logger.debug(`cache miss ${key}`);
      const flight = flights.start(key, namespace, invocation.input, invocation.ctx.signal);
      invocation.ctx.useSignal(flight.signal);
      try {
        const result = await next();
        if (flight.stale) metrics.cacheStaleDiscards++;
        else if (isCacheable(result)) {
          const entry = {
            value: result,
            namespace,
            input: invocation.input,
            expiresAt: clock.now() + options.ttl,
          };
          await failOpen("write", () => cache.set(key, entry, options.ttl));
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
  },
};
