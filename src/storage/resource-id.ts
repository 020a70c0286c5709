import { createHmac, randomBytes } from "node:crypto";

/**
 * The one rule for resource ids, shared by the manager that makes them and every storage
 * that keeps them: 128 bits, base64url (22 characters). An id is either random or a
 * digest of an owner and a URI a handler chose; it never holds client text itself, and
 * storages refuse anything else before touching a disk, a key or a bucket.
 */
const RESOURCE_ID = /^[A-Za-z0-9_-]{22}$/;

/** Separates digest ids from any other use of the same hash (it is a label, not a secret). */
const DERIVED_ID_KEY = "frugal-mcp/resource-id/chosen-uri/v1";

/** A fresh id: 128 random bits, base64url. */
export function newResourceId(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * The id of the resource at a URI a handler chose, for one owner (null: a global one):
 * HMAC-SHA-256 of the pair, JSON-encoded so no two pairs share an input, cut to 128 bits.
 * The same owner and URI always give the same id (on every instance, after a restart,
 * with no configuration); another owner, or global scope, gives another id. Ids are
 * not secrets: whoever finds one still meets the owner and URI checks of the metadata.
 */
export function derivedResourceId(owner: string | null, uri: string): string {
  return createHmac("sha256", DERIVED_ID_KEY)
    .update(JSON.stringify([owner, uri]))
    .digest()
    .subarray(0, 16)
    .toString("base64url");
}

/** True for ids this server could have generated (checked before any storage lookup). */
export function isResourceId(id: unknown): id is string {
  return typeof id === "string" && RESOURCE_ID.test(id);
}
