import { itemAt } from "../common/guards.js";
import { carriedCount, type Expiry } from "./cursor-expiry.js";
import { pack } from "./cursor-packing.js";
import type { KeyValue } from "./cursor-values.js";

/**
 * The text of a cursor (format 1). Every cursor starts with a 4-character header, base64url
 * of 24 bits: the format (2 bits, 1), the kind (3 bits), a hint of the signing key's id
 * (3 bits), and the expiry (4 + 12 bits, see `cursor-expiry.ts`). Then, by kind:
 *
 * - signed: the MAC (16 characters, 96 bits), then the key values: one integer in decimal
 *   (`int`), one bigint in decimal (`bigint`), one string as it is (`text`: letters, digits,
 *   `-`, `.` and `_`; any other character as `~` and the hex of its UTF-8 bytes), or
 *   anything else packed (`cursor-packing.ts`) in base64url (`packed`);
 * - encrypted: the MAC (16), a random nonce (12 characters, 72 bits), then the signed
 *   cursor's kind (one digit) and body, encrypted character by character (`cursor-cipher.ts`):
 *   13 characters more than the signed cursor, always.
 *
 * The format's first character is one of `Q`–`f`; a cursor of the format before it (a JSON
 * payload) starts with `AQ` or `Ag`.
 */
export const FORMAT = 1;

export enum Kind {
  Packed = 0,
  Int = 1,
  Bigint = 2,
  Text = 3,
  Encrypted = 4,
}

/** Characters of the header, the MAC and the nonce. */
export const HEADER_LENGTH = 4;
export const MAC_LENGTH = 16;
export const NONCE_LENGTH = 12;

/** What every cursor is written with: base64url and `.` and `~` (all unreserved in a URI). */
export const CURSOR_TEXT = /^[A-Za-z0-9._~-]+$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** A cursor of the format before this one: base64url of a JSON payload after byte 1 or 2. */
export const OLDER_FORMAT = /^A[Qg][A-Za-z0-9_-]{38,}$/;

export interface Header {
  readonly format: number;
  readonly kind: number;
  readonly keyHint: number;
  readonly exponent: number;
  readonly carried: number;
}

export function writeHeader(kind: Kind, keyHint: number, expiry: Expiry): string {
  const bits =
    (FORMAT << 22) | (kind << 19) | (keyHint << 16) | (expiry.exponent << 12) | carriedCount(expiry);
  return Buffer.from([bits >> 16, (bits >> 8) & 0xff, bits & 0xff]).toString("base64url");
}

/** The header of a cursor, or undefined when it has none. */
export function readHeader(token: string): Header | undefined {
  const text = token.slice(0, HEADER_LENGTH);
  if (text.length < HEADER_LENGTH || !BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64url");
  const bits = (itemAt(bytes, 0) << 16) | (itemAt(bytes, 1) << 8) | itemAt(bytes, 2);
  return {
    format: bits >> 22,
    kind: (bits >> 19) & 7,
    keyHint: (bits >> 16) & 7,
    exponent: (bits >> 12) & 15,
    carried: bits & 4095,
  };
}

/** Decodes base64url written the one way this server writes it; undefined otherwise. */
export function fromBase64url(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : undefined;
}

/**
 * How a signed cursor writes a one-field key without state: in decimal, or as text, when
 * that is not longer than packing it (an integer always: digits cost a token per three).
 */
export function readableBody(value: KeyValue): { kind: Kind; body: string } | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value))
    return { kind: Kind.Int, body: String(value) };
  if (typeof value === "bigint") {
    const body = value.toString();
    return body.length <= 20 ? { kind: Kind.Bigint, body } : undefined;
  }
  if (typeof value !== "string") return undefined;
  let body = "";
  for (const char of value) {
    if (/^[A-Za-z0-9._-]$/.test(char)) body += char;
    else if (char.length === 1 && /[\uD800-\uDFFF]/.test(char))
      return undefined; // a lone surrogate: UTF-8 cannot carry it
    else for (const byte of Buffer.from(char, "utf8")) body += `~${byte.toString(16).padStart(2, "0")}`;
  }
  const packed = Math.ceil((pack([value], []).length * 4) / 3);
  return body.length <= packed ? { kind: Kind.Text, body } : undefined;
}

/** The value a readable body holds; throws `RangeError` on a body this server does not write. */
export function readBody(kind: Kind, body: string): KeyValue {
  if (kind === Kind.Text) {
    if (!/^(?:[A-Za-z0-9._-]|~[0-9a-f]{2})*$/.test(body)) throw new RangeError("malformed text");
    try {
      return decodeURIComponent(body.replaceAll("~", "%"));
    } catch {
      throw new RangeError("malformed text");
    }
  }
  if (!/^-?(?:0|[1-9][0-9]*)$/.test(body)) throw new RangeError("malformed number");
  if (kind === Kind.Bigint) return BigInt(body);
  const value = Number(body);
  if (!Number.isSafeInteger(value)) throw new RangeError("malformed number");
  return value;
}
