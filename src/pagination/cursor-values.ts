import type { StableKeyValue } from "../pipeline/tool-context.js";
/**
 * Key values keep their types through a cursor: dates and bigints are tagged so they
 * come back as `Date` and `bigint`, not as strings.
 */
export type KeyValue = StableKeyValue;

type Encoded = string | number | boolean | null | { $d: string } | { $b: string };

/** Encodes one key value for a cursor payload. */
export function encodeKeyValue(value: unknown): Encoded {
  if (value instanceof Date) return { $d: value.toISOString() };
  if (typeof value === "bigint") return { $b: value.toString() };
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number" && Number.isFinite(value)) return value;
  throw new TypeError(
    `a stable key value must be a string, number, boolean, bigint, Date or null, not ${describe(value)}`,
  );
}

/** Decodes one key value; throws on anything a cursor could not have produced. */
export function decodeKeyValue(encoded: unknown): KeyValue {
  if (encoded === null || typeof encoded === "string" || typeof encoded === "boolean") return encoded;
  if (typeof encoded === "number" && Number.isFinite(encoded)) return encoded;
  if (typeof encoded === "object") {
    const tagged = encoded as Record<string, unknown>;
    if (typeof tagged.$d === "string") {
      const date = new Date(tagged.$d);
      if (!Number.isNaN(date.getTime())) return date;
    }
    if (typeof tagged.$b === "string" && /^-?\d+$/.test(tagged.$b)) return BigInt(tagged.$b);
  }
  throw new TypeError("malformed key value");
}

function describe(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "number") return String(value);
  return typeof value === "object" && value !== null ? (value.constructor?.name ?? "object") : typeof value;
}
