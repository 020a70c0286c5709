/** Marks a result that must never be cached (e.g. a spilled result whose resource will expire). */
export const NOT_CACHEABLE = Symbol.for("frugal-mcp.not-cacheable");

/** Errors, `isError` results and results marked `NOT_CACHEABLE` are never cached. */
export function isCacheable(result: unknown): boolean {
  if (typeof result !== "object" || result === null) return true;
  if ((result as { isError?: unknown }).isError === true) return false;
  return !(NOT_CACHEABLE in result);
}

/** Marks a result as not cacheable without changing what is sent. */
export function markNotCacheable<T extends object>(result: T): T {
  Object.defineProperty(result, NOT_CACHEABLE, { value: true, enumerable: false });
  return result;
}
