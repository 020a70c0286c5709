import * as crypto from "node:crypto";
import { createHash } from "node:crypto";
import { MAX_TOKENS_META } from "../budget/budget-of.js";
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
    // A client that lowered the budget of this call may get a shorter page or an error:
    // that answer must not be served to calls with the normal budget, nor the reverse.
    invocation.ctx.metaValue(MAX_TOKENS_META) ?? null,
  ]);
  return `${namespace}:${sha256(material)}`;
}

// `crypto.hash` (Node 20.12+) hashes in one native call; a hit is dominated by this hash.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "base64url") => string })
  .hash;

function sha256(material: string): string {
  return oneShot
    ? oneShot("sha256", material, "base64url")
    : createHash("sha256").update(material).digest("base64url");
}
