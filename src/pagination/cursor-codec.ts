import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";
import type { Clock } from "../clock/clock.js";
import type { CursorKey, CursorKeyring } from "./cursor-keys.js";
import { decodeKeyValue, encodeKeyValue, type KeyValue } from "./cursor-values.js";

/** What a cursor is bound to: it is refused anywhere else. */
export interface CursorBinding {
  /** Tool name or resource template. */
  readonly operation: string;
  /** Canonical JSON of the input without `cursor`, `limit` and `fields`. */
  readonly canonicalInput: string;
  /** The stable key and its order, e.g. `updatedAt,slug:asc`. */
  readonly keySpec: string;
  /** The authenticated principal, or null (never the session, so a reconnecting client can go on). */
  readonly principal: string | null;
}

/** Why a cursor was refused; the message is safe to show to a client. */
export class CursorError extends Error {
  override readonly name = "CursorError";
}

export interface CursorCodecOptions {
  readonly keyring: CursorKeyring;
  readonly clock: Clock;
  /** Lifetime of a cursor (default 24 hours). */
  readonly ttlMs: number;
  /** Encrypt cursors (AES-256-GCM) so key values are not readable by clients. */
  readonly encrypt: boolean;
  /** Longest cursor accepted, in characters (default 1,024). */
  readonly maxLength: number;
}

const SIGNED = 1;
const ENCRYPTED = 2;

/**
 * Opaque, versioned, tamper-proof cursors. Layout before base64url:
 * `[version][kid length][kid][signed: HMAC-SHA256 (32) + JSON | encrypted: IV (12) + tag (16) + ciphertext]`.
 * The key id travels in clear so keys can rotate; everything else is signed or encrypted.
 *
 * @example
 * ```ts
 * const token = codec.encode({ updatedAt: new Date(), slug: "intro" }, binding);
 * codec.decode(token, binding); // { updatedAt: Date, slug: "intro" }
 * ```
 */
export class CursorCodec {
  constructor(private readonly options: CursorCodecOptions) {}

  /**
   * Issues a cursor continuing after `after`. `state` carries small extra values that the
   * next page needs (e.g. the time window of a stream chunk); they are signed too.
   */
  encode(
    after: Readonly<Record<string, unknown>>,
    binding: CursorBinding,
    state?: Readonly<Record<string, unknown>>,
  ): string {
    const key = this.options.keyring.current;
    const payload: Record<string, unknown> = {
      b: bindingDigest(binding),
      a: encodeRecord(after),
      e: this.options.clock.now() + this.options.ttlMs,
    };
    if (state) payload.x = encodeRecord(state);
    const body = Buffer.from(JSON.stringify(payload));
    const header = Buffer.concat([
      Buffer.from([this.options.encrypt ? ENCRYPTED : SIGNED, key.id.length]),
      Buffer.from(key.id),
    ]);
    if (!this.options.encrypt) {
      const signature = createHmac("sha256", key.sign).update(header).update(body).digest();
      return this.checkedLength(Buffer.concat([header, signature, body]).toString("base64url"));
    }
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", key.encrypt, iv).setAAD(header);
    const ciphertext = Buffer.concat([cipher.update(body), cipher.final()]);
    return this.checkedLength(
      Buffer.concat([header, iv, cipher.getAuthTag(), ciphertext]).toString("base64url"),
    );
  }

  /** Never issue a cursor that `decode` would refuse: say so now, naming the fix. */
  private checkedLength(token: string): string {
    if (token.length <= this.options.maxLength) return token;
    throw new Error(
      `the next cursor would be ${token.length} characters, over maxCursorLength (${this.options.maxLength}): the stable key's values are too long; raise maxCursorLength or page by a shorter key`,
    );
  }

  /** The `after` key values of a valid cursor; throws `CursorError` saying why otherwise. */
  decode(token: string, binding: CursorBinding): Record<string, KeyValue> {
    return this.open(token, binding).after;
  }

  /** The `after` key values and extra state of a valid cursor; throws `CursorError` otherwise. */
  open(
    token: string,
    binding: CursorBinding,
  ): { after: Record<string, KeyValue>; state: Record<string, KeyValue> } {
    if (token.length > this.options.maxLength)
      throw new CursorError(`the cursor is longer than ${this.options.maxLength} characters`);
    if (!/^[A-Za-z0-9_-]+$/.test(token))
      throw new CursorError("the cursor is not a cursor this server issued");
    const raw = Buffer.from(token, "base64url");
    // base64url ignores some low bits of the last character; refuse any spelling but the canonical one.
    if (raw.toString("base64url") !== token) throw new CursorError("the cursor was altered");
    const version = raw[0];
    const kidLength = raw[1] ?? 0;
    const kid = raw.subarray(2, 2 + kidLength).toString();
    const header = raw.subarray(0, 2 + kidLength);
    const rest = raw.subarray(2 + kidLength);
    const key = this.options.keyring.byId.get(kid);
    if (!key || (version !== SIGNED && version !== ENCRYPTED)) {
      throw new CursorError("the cursor was not issued by this server, or its key was retired");
    }
    // A signed cursor reveals its key values: once encryption is on, refuse the readable kind
    // (a cursor issued before the switch, or forged from a leaked signing key), and the reverse.
    if (version !== (this.options.encrypt ? ENCRYPTED : SIGNED)) {
      throw new CursorError(
        this.options.encrypt
          ? "the cursor is not encrypted, and this server accepts only encrypted cursors"
          : "the cursor is encrypted, and this server accepts only signed cursors",
      );
    }
    const body = version === SIGNED ? verifySigned(key, header, rest) : decrypt(key, header, rest);
    let payload: { b?: unknown; a?: unknown; e?: unknown; x?: unknown };
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      throw new CursorError("the cursor is malformed");
    }
    if (typeof payload.e !== "number" || payload.e <= this.options.clock.now())
      throw new CursorError("the cursor has expired");
    if (payload.b !== bindingDigest(binding)) {
      throw new CursorError("the cursor belongs to another tool, other arguments or another user");
    }
    return { after: decodeRecord(payload.a), state: payload.x === undefined ? {} : decodeRecord(payload.x) };
  }
}

function encodeRecord(record: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const encoded: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(record)) encoded[field] = encodeKeyValue(value);
  return encoded;
}

function decodeRecord(encoded: unknown): Record<string, KeyValue> {
  if (typeof encoded !== "object" || encoded === null || Array.isArray(encoded)) {
    throw new CursorError("the cursor is malformed");
  }
  const decoded: Record<string, KeyValue> = {};
  try {
    for (const [field, value] of Object.entries(encoded)) decoded[field] = decodeKeyValue(value);
  } catch {
    throw new CursorError("the cursor is malformed");
  }
  return decoded;
}

function verifySigned(key: CursorKey, header: Buffer, rest: Buffer): Buffer {
  if (rest.length <= 32) throw new CursorError("the cursor is malformed");
  const signature = rest.subarray(0, 32);
  const body = rest.subarray(32);
  const expected = createHmac("sha256", key.sign).update(header).update(body).digest();
  if (!timingSafeEqual(signature, expected)) throw new CursorError("the cursor was altered");
  return body;
}

function decrypt(key: CursorKey, header: Buffer, rest: Buffer): Buffer {
  if (rest.length <= 28) throw new CursorError("the cursor is malformed");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.encrypt, rest.subarray(0, 12)).setAAD(header);
    decipher.setAuthTag(rest.subarray(12, 28));
    return Buffer.concat([decipher.update(rest.subarray(28)), decipher.final()]);
  } catch {
    throw new CursorError("the cursor was altered");
  }
}

/** A short digest of everything a cursor is bound to, so the payload reveals none of it. */
function bindingDigest(binding: CursorBinding): string {
  return createHash("sha256")
    .update(JSON.stringify([binding.operation, binding.canonicalInput, binding.keySpec, binding.principal]))
    .digest("base64url")
    .slice(0, 22);
}
