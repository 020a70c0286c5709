import { copyList, copyOptions } from "../decorators/copy-options.js";
import { defineCapability } from "../decorators/define-capability.js";
import { stageFromApp } from "../pipeline/stage-from-app.js";
import { CACHE_STAGE, cacheStageFor } from "./cache.stage.js";
import type { CachedOptions, CacheSpec } from "./cache-spec.js";
import { checkCacheOptions } from "./check-cache-options.js";

/**
 * Caches the shaped result for `ttl` ms; any event in `invalidateOn` drops it at once.
 * The key is the service, the method, the canonical input (key order and defaults do not
 * matter), the page requested, and the owner unless `scope: "global"`. Errors and
 * `isError` results are never cached; concurrent misses run the handler once. Read an
 * operation's resolved options with `specOf(definition, Cached.capability)`.
 *
 * @example
 * ```ts
 * @Tool({ input: { site: z.string() } })
 * @Cached({ ttl: 60_000, invalidateOn: [{ event: "articles.changed", match: (input, p) => input.site === p.site }] })
 * list({ site }: { site: string }) { return this.repo.bySite(site); }
 * ```
 */
export const Cached = defineCapability({
  name: "cache",
  decorator: "@Cached",
  options(options: CachedOptions): CachedOptions {
    const copy = copyOptions(options);
    // A non-array `invalidateOn` is kept as given (spreading a string would record its letters as events).
    return typeof copy === "object" && copy !== null && Array.isArray(copy.invalidateOn)
      ? Object.freeze({ ...copy, invalidateOn: copyList(copy.invalidateOn) })
      : copy;
  },
  resolve: (options, target): CacheSpec => checkCacheOptions(options, target),
  // A hit is the stored entry itself, and coalesced misses share one object.
  sharesResults: true,
  stage: {
    // Its own place, right inside the stages that decide the page: user stages placed
    // `after: "cache"` run inside it, on misses only.
    place: "cache",
    before: "shape",
    create: stageFromApp(CACHE_STAGE, (spec, operation, deps) => cacheStageFor(spec, operation.where, deps)),
  },
});
