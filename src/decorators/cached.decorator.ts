import type { CachedOptions } from "../metadata/definitions.js";
import { metadataStore } from "../metadata/store.js";
import { copyList, copyOptions } from "./copy-options.js";
import { type MethodDecorator, memberKindOf } from "./member-kind.js";

/**
 * Caches the shaped result for `ttl` ms; any event in `invalidateOn` drops it at once.
 * The key is the service, the method, the canonical input (key order and defaults do not
 * matter), the page requested, and the owner unless `scope: "global"`. Errors and
 * `isError` results are never cached; concurrent misses run the handler once.
 *
 * @example
 * ```ts
 * @Tool({ input: { site: z.string() } })
 * @Cached({ ttl: 60_000, invalidateOn: [{ event: "articles.changed", match: (input, p) => input.site === p.site }] })
 * list({ site }: { site: string }) { return this.repo.bySite(site); }
 * ```
 */
export function Cached(options: CachedOptions): MethodDecorator {
  const copy = copyOptions(options);
  // A non-array `invalidateOn` is kept as given (spreading a string would record its letters as events).
  const recorded =
    typeof copy === "object" && copy !== null && Array.isArray(copy.invalidateOn)
      ? Object.freeze({ ...copy, invalidateOn: copyList(copy.invalidateOn) })
      : copy;
  return (target, property, descriptor) => {
    metadataStore.writeMethod(target, property, memberKindOf(descriptor), { cached: recorded });
  };
}
