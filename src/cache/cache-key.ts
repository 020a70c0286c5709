import { createHash } from "node:crypto";
import { canonicalJson } from "../pagination/canonical-json.js";
import type { Invocation } from "../pipeline/invocation.js";

/**
 * The cache key of a call: service and method, the canonical input (key order and
 * defaults do not change it; the cursor is already decoded into `after`), the page
 * (`after`, `limit`, `fields`, a stream's range) and the owner when scoped to the owner.
 */
export function cacheKey(namespace: string, invocation: Invocation, owner: string | null): string {
  const page = invocation.page;
  const material = canonicalJson([
    namespace,
    invocation.input ?? null,
    page ? [page.after, page.limit, page.fields ?? null, page.window ?? null] : null,
    owner,
  ]);
  return `${namespace}:${createHash("sha256").update(material).digest("base64url")}`;
}
