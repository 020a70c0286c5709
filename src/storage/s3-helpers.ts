import { fieldOf } from "../common/guards.js";
import { StorageError, type StoredResourceMeta } from "./storage.js";
import { parseStoredMeta } from "./stored-meta.js";

// Pure helpers of S3Storage: key parsing, metadata checks and AWS error classification.

/** The version of `<version>.data` or `<version>.index`, else undefined. */
export function versionOfBlob(name: string): number | undefined {
  const match = /^([1-9][0-9]*)\.(?:data|index)$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** Metadata that is not what this storage wrote (skipped by `list()`). */
export class CorruptMetaError extends StorageError {
  constructor() {
    super("the stored metadata of this resource is corrupt");
  }
}

/** Stored metadata checked by the storages' one parser; corrupt metadata is an error here. */
export function parseMeta(id: string, text: string): StoredResourceMeta {
  const meta = parseStoredMeta(text, id);
  if (!meta) throw new CorruptMetaError();
  return meta;
}

function statusOf(error: unknown): number | undefined {
  const status = fieldOf(fieldOf(error, "$metadata"), "httpStatusCode");
  return typeof status === "number" ? status : undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = fieldOf(error, "Code") ?? fieldOf(error, "name");
  return typeof code === "string" ? code : undefined;
}

/** The object is missing (a missing bucket is a configuration error, not this). */
export function isNotFound(error: unknown): boolean {
  const code = codeOf(error);
  if (code === "NoSuchBucket") return false;
  return code === "NoSuchKey" || code === "NotFound" || statusOf(error) === 404;
}

export function isInvalidRange(error: unknown): boolean {
  return codeOf(error) === "InvalidRange" || statusOf(error) === 416;
}

/** A message safe for clients: the operation and the S3 error code, never the bucket or a key. */
export function storageError(what: string, error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const code = codeOf(error);
  const status = statusOf(error);
  const detail = [code && code !== "Error" ? code : undefined, status ? `HTTP ${status}` : undefined]
    .filter(Boolean)
    .join(", ");
  return new StorageError(`S3 storage could not ${what}${detail ? ` (${detail})` : ""}`, { cause: error });
}
