/**
 * Owners without a session. A 2026-07-28 request stands alone: with no authenticated
 * principal, its caller is `anonymous:<id>`, an owner for that request (or stdio
 * connection) only, so owner-scoped cache entries are never shared between anonymous
 * callers. What such a caller stores belongs to nobody it could prove to be again: it is
 * kept under `UNLISTED_OWNER`, readable by anyone who holds its unguessable URI, and never
 * listed to anyone (DESIGN, "Protocol versions").
 */
export const ANONYMOUS_OWNER_PREFIX = "anonymous:";

/** The stored owner of what anonymous callers create: reachable by URI, listed to nobody. */
export const UNLISTED_OWNER = "unlisted";

/**
 * True for the owner of an anonymous sessionless call.
 *
 * @example
 * ```ts
 * isAnonymousOwner("anonymous:3f2c…"); // true
 * isAnonymousOwner("session:9b1e…"); // false: a 2025 session owns what it stores
 * ```
 */
export function isAnonymousOwner(owner: string): boolean {
  return owner.startsWith(ANONYMOUS_OWNER_PREFIX);
}
