// What RedisStorage says when Redis fails, and the small conversions around its commands.

import { fieldOf } from "../common/guards.js";
import { isResourceId } from "./resource-id.js";
import { StorageError, VersionConflictError } from "./storage.js";

/** The id in a tagged key part (`{<id>}`), if it is one the server could have made. */
export function untagged(part: string): string | undefined {
  const id = part.startsWith("{") && part.endsWith("}") ? part.slice(1, -1) : undefined;
  return isResourceId(id) ? id : undefined;
}

export function conflict(id: string, expected: number): VersionConflictError {
  return new VersionConflictError(
    `resource ${id} changed since version ${expected} was read (another call or instance wrote it first); read it again`,
  );
}

export function gone(version: number): StorageError {
  return new StorageError(
    `version ${version} of this resource is gone; it was updated or deleted; read it again`,
  );
}

/** A Buffer view of the bytes (ioredis would stringify a plain Uint8Array). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Throws the first error of a transaction's replies (ioredis resolves them rather than rejecting). */
export function expectOk(replies: Array<[Error | null, unknown]> | null): void {
  if (replies === null) throw new Error("the transaction was aborted");
  for (const [error] of replies) if (error) throw error;
}

/** The prefix as a literal in a SCAN MATCH pattern. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}

/** A reason safe to show a client (no URL, no credentials). */
export function describe(error: unknown): string {
  if (error instanceof StorageError) return error.message;
  const message = String(fieldOf(error, "message") ?? error);
  if (/timed out/i.test(message)) return "Redis did not answer in time";
  if (/OOM/.test(message)) return "Redis is out of memory";
  if (/Stream isn't writeable|enableOfflineQueue|Connection is closed/i.test(message))
    return "Redis is not connected";
  return message.split("\n")[0]?.slice(0, 200) ?? "unknown error";
}
