import * as crypto from "node:crypto";
import { createHash } from "node:crypto";
import { canonicalJson } from "../common/canonical-json.js";
import type { CapabilityCall } from "../pipeline/capability.js";
import { isSlicedRead, requestedTokenLimit } from "../pipeline/token-limit.js";

/**
 * The cache key of a call: service and method, the canonical input (key order and
 * defaults do not change it; the cursor is already decoded), what else decides the answer
 * (`call.identity`: the page's `after`, `limit`, `fields`, a stream's range) and the
 * owner when scoped to the owner.
 */
export function cacheKey(namespace: string, call: CapabilityCall, owner: string | null): string {
  const material = canonicalJson([
    namespace,
    call.input ?? null,
    call.identity,
    owner,
    // A client that lowered the budget of this call may get a shorter page or an error:
    // that answer must not be served to calls with the normal budget, nor the reverse. A
    // read that a tool slices itself holds the whole value: never served to anyone else.
    requestedTokenLimit(call.ctx.meta) ?? (isSlicedRead(call.ctx.meta) ? "sliced" : null),
  ]);
  return `${namespace}:${sha256(material)}`;
}

/** The namespace a key from `cacheKey` belongs to (the digest after the last colon has none). */
export function namespaceOfKey(key: string): string {
  const colon = key.lastIndexOf(":");
  return colon < 0 ? key : key.slice(0, colon);
}

// `crypto.hash` (Node 20.12+) hashes in one native call; a hit is dominated by this hash.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: "base64url") => string })
  .hash;

function sha256(material: string): string {
  return oneShot
    ? oneShot("sha256", material, "base64url")
    : createHash("sha256").update(material).digest("base64url");
}
