import { randomBytes } from "node:crypto";

/**
 * The one rule for resource ids, shared by the manager that makes them and every storage
 * that keeps them: 128 random bits, base64url (22 characters). Ids never come from client
 * text, and storages refuse anything else before touching a disk, a key or a bucket.
 */
const RESOURCE_ID = /^[A-Za-z0-9_-]{22}$/;

/** A fresh id: 128 random bits, base64url. */
export function newResourceId(): string {
  return randomBytes(16).toString("base64url");
}

/** True for ids this server could have generated (checked before any storage lookup). */
export function isResourceId(id: unknown): id is string {
  return typeof id === "string" && RESOURCE_ID.test(id);
}
