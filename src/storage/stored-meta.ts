import type { StoredResourceMeta } from "./storage.js";

const KINDS = new Set(["json-array", "text", "bytes"]);

/**
 * Metadata parsed from stored JSON, or undefined when it is malformed or belongs to
 * another id (a file copied or planted under the wrong name).
 */
export function parseStoredMeta(text: string, id: string): StoredResourceMeta | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const m = value as Record<string, unknown>;
  const count = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
  const valid =
    m.id === id &&
    typeof m.uri === "string" &&
    (m.owner === null || typeof m.owner === "string") &&
    typeof m.creator === "string" &&
    typeof m.name === "string" &&
    (m.description === undefined || typeof m.description === "string") &&
    typeof m.mimeType === "string" &&
    typeof m.kind === "string" &&
    KINDS.has(m.kind) &&
    count(m.size) &&
    count(m.total) &&
    count(m.version) &&
    m.version >= 1 &&
    typeof m.createdAt === "number" &&
    typeof m.expiresAt === "number";
  return valid ? (value as StoredResourceMeta) : undefined;
}

/** The id, if the server could have generated it; refused before anything is touched. */
