import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Clock } from "../clock/clock.js";
import { itemAt } from "../common/guards.js";
import { shiftText } from "./cursor-cipher.js";
import { type Expiry, expiresAt, expiryAfter, nearestExpiries } from "./cursor-expiry.js";
import {
  CURSOR_TEXT,
  FORMAT,
  fromBase64url,
  HEADER_LENGTH,
  Kind,
  MAC_LENGTH,
  NONCE_LENGTH,
  OLDER_FORMAT,
  readableBody,
  readBody,
  readHeader,
  writeHeader,
} from "./cursor-format.js";
import type { CursorKey, CursorKeyring } from "./cursor-keys.js";
import { pack, unpack } from "./cursor-packing.js";
import { checkKeyValue, type KeyValue } from "./cursor-values.js";

/** What a cursor is bound to: it is refused anywhere else. None of it travels in the cursor. */
export interface CursorBinding {
  /** Tool name or resource template. */
  readonly operation: string;
  /** Canonical JSON of the input without `cursor`, `limit` and `fields`. */
  readonly canonicalInput: string;
  /** The stable key and its order, e.g. `updatedAt,slug:asc`. */
  readonly keySpec: string;
  /** The stable key's fields, in order: a cursor carries their values, never their names. */
  readonly keyFields: readonly string[];
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
  /** Encrypt cursors so key values are not readable by clients. */
  readonly encrypt: boolean;
  /** Longest cursor accepted, in characters (default 1,024). */
  readonly maxLength: number;
}

const MAC_BYTES = 12;
const NONCE_BYTES = 9;
const DOMAIN = "frugal-mcp cursor 1\0";
const ALTERED = "the cursor was altered, or belongs to another tool, other arguments or another user";

/**
 * Compact, opaque, versioned, tamper-proof cursors (the text is described in
 * `cursor-format.ts`). What a cursor is bound to (operation, canonical input, key spec and
 * fields, principal) and its whole expiry go into its MAC (HMAC-SHA256, 96 bits), never
 * into its text, so the text holds only a 4-character header, the MAC and the key values:
 * `QIIJ3kB2lqw4pvLZ4a0E5000` continues after the key 5000.
 *
 * Encrypted cursors are SIV (RFC 5297's construction, with HMAC-SHA256 as its PRF): the MAC
 * of the binding, the expiry, a random nonce and the signed cursor's kind and body is the
 * IV of an AES-256-CTR keystream that encrypts that kind and body character by character
 * (`cursor-cipher.ts`), and is checked again after decryption. So an encrypted cursor is
 * exactly 13 characters longer than the signed one (a 12-character nonce and its kind), and
 * each one is unique (a request state must be: it is completed once).
 *
 * @example
 * ```ts
 * const token = codec.encode({ updatedAt: new Date(), slug: "intro" }, binding);
 * codec.decode(token, binding); // { updatedAt: Date, slug: "intro" }
 * ```
 */
export class CursorCodec {
  private readonly keysByHint = new Map<number, CursorKey[]>();
  private readonly currentHint: number;

  constructor(private readonly options: CursorCodecOptions) {
    for (const key of options.keyring.byId.values()) {
      const hint = keyHint(key.id);
      this.keysByHint.set(hint, [...(this.keysByHint.get(hint) ?? []), key]);
    }
    this.currentHint = keyHint(options.keyring.current.id);
  }

  /**
   * Issues a cursor continuing after `after` (the values of `binding.keyFields`). `state`
   * carries extra values that the next page needs (e.g. the time window of a stream chunk);
   * they are signed (or encrypted) too.
   */
  encode(
    after: Readonly<Record<string, unknown>>,
    binding: CursorBinding,
    state?: Readonly<Record<string, unknown>>,
  ): string {
    const values = keyValues(after, binding.keyFields);
    const extra = Object.entries(state ?? {}).map(([name, value]) => [name, checkKeyValue(value)] as const);
    const expiry = expiryAfter(this.options.clock.now(), this.options.ttlMs);
    const key = this.options.keyring.current;
    const digest = bindingDigest(binding);
    const readable = extra.length === 0 && values.length === 1 ? readableBody(values[0] ?? null) : undefined;
    const kind = readable?.kind ?? Kind.Packed;
    const body = readable?.body ?? pack(values, extra).toString("base64url");
    if (this.options.encrypt) {
      const header = writeHeader(Kind.Encrypted, this.currentHint, expiry);
      const nonce = randomBytes(NONCE_BYTES).toString("base64url");
      const plain = `${kind}${body}`;
      const tag = mac(key.sign, digest, expiry, header + nonce + plain);
      const hidden = shiftText(plain, key.encrypt, ivOf(tag), 1);
      return this.checkedLength(`${header}${tag.toString("base64url")}${nonce}${hidden}`);
    }
    const header = writeHeader(kind, this.currentHint, expiry);
    const tag = mac(key.sign, digest, expiry, header + body);
    return this.checkedLength(`${header}${tag.toString("base64url")}${body}`);
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
    const { maxLength, encrypt, clock } = this.options;
    if (token.length > maxLength) throw new CursorError(`the cursor is longer than ${maxLength} characters`);
    if (!CURSOR_TEXT.test(token)) throw new CursorError("the cursor is not a cursor this server issued");
    if (OLDER_FORMAT.test(token)) throw new CursorError("the cursor is from an older version of this server");
    const header = readHeader(token);
    if (!header || header.format !== FORMAT || header.kind > Kind.Encrypted) {
      throw new CursorError("the cursor is not a cursor this server issued");
    }
    // A signed cursor reveals its key values: once encryption is on, refuse the readable kind
    // (a cursor issued before the switch, or forged from a leaked signing key), and the reverse.
    if ((header.kind === Kind.Encrypted) !== encrypt) {
      throw new CursorError(
        encrypt
          ? "the cursor is not encrypted, and this server accepts only encrypted cursors"
          : "the cursor is encrypted, and this server accepts only signed cursors",
      );
    }
    const keys = this.keysByHint.get(header.keyHint);
    if (!keys) throw new CursorError("the cursor was not issued by this server, or its key was retired");
    const tag = fromBase64url(token.slice(HEADER_LENGTH, HEADER_LENGTH + MAC_LENGTH));
    if (tag?.length !== MAC_BYTES) throw new CursorError("the cursor is malformed");
    const now = clock.now();
    const opened = {
      kind: header.kind,
      digest: bindingDigest(binding),
      tag,
      expiries: nearestExpiries(header.exponent, header.carried, now),
    };
    const verified =
      header.kind === Kind.Encrypted
        ? verifyEncrypted(token, keys, opened)
        : verifySigned(token, keys, opened);
    if (!verified) throw new CursorError(ALTERED);
    if (expiresAt(verified.expiry) <= now) throw new CursorError("the cursor has expired");
    const { values, state } = readValues(verified.kind, verified.body, binding.keyFields.length);
    return {
      after: Object.fromEntries(binding.keyFields.map((field, i) => [field, values[i] ?? null])),
      state,
    };
  }
}

/** A cursor's expiry, and the kind and text of its body (decrypted, when it was encrypted). */
interface Verified {
  readonly expiry: Expiry;
  readonly kind: Kind;
  readonly body: string;
}

interface Opened {
  readonly kind: Kind;
  readonly digest: Buffer;
  readonly tag: Buffer;
  /** The expiries the header may stand for, most likely first. */
  readonly expiries: readonly Expiry[];
}

/** The expiry and body of a signed cursor whose MAC one of `keys` made; undefined otherwise. */
function verifySigned(token: string, keys: readonly CursorKey[], opened: Opened): Verified | undefined {
  const body = token.slice(HEADER_LENGTH + MAC_LENGTH);
  const signed = token.slice(0, HEADER_LENGTH) + body;
  for (const key of keys) {
    for (const expiry of opened.expiries) {
      if (timingSafeEqual(mac(key.sign, opened.digest, expiry, signed), opened.tag)) {
        return { expiry, kind: opened.kind, body };
      }
    }
  }
  return undefined;
}

/** The expiry and decrypted body of an encrypted cursor that one of `keys` made; undefined otherwise. */
function verifyEncrypted(token: string, keys: readonly CursorKey[], opened: Opened): Verified | undefined {
  const start = HEADER_LENGTH + MAC_LENGTH;
  const nonce = token.slice(start, start + NONCE_LENGTH);
  const hidden = token.slice(start + NONCE_LENGTH);
  if (nonce.length !== NONCE_LENGTH || !fromBase64url(nonce) || hidden === "") return undefined;
  const authenticated = token.slice(0, HEADER_LENGTH) + nonce;
  for (const key of keys) {
    const plain = shiftText(hidden, key.encrypt, ivOf(opened.tag), -1);
    for (const expiry of opened.expiries) {
      if (timingSafeEqual(mac(key.sign, opened.digest, expiry, authenticated + plain), opened.tag)) {
        return { expiry, kind: Number(plain[0]), body: plain.slice(1) };
      }
    }
  }
  return undefined;
}

/** The values of a verified cursor: the MAC proves this server wrote them, so only a bug fails here. */
function readValues(kind: Kind, body: string, count: number) {
  try {
    if (kind !== Kind.Packed) {
      if (count !== 1 || !(kind in Kind) || kind === Kind.Encrypted)
        throw new RangeError("not a readable body");
      return { values: [readBody(kind, body)], state: {} };
    }
    const bytes = fromBase64url(body);
    if (!bytes) throw new RangeError("not base64url");
    return unpack(bytes, count);
  } catch {
    throw new CursorError("the cursor is malformed");
  }
}

function mac(key: Buffer, digest: Buffer, expiry: Expiry, text: string): Buffer {
  return createHmac("sha256", key)
    .update(DOMAIN)
    .update(digest)
    .update(`${expiry.exponent}:${expiry.count}\0`)
    .update(text)
    .digest()
    .subarray(0, MAC_BYTES);
}

/** The keystream's IV: the MAC, then a 32-bit block counter from 0. */
function ivOf(tag: Buffer): Buffer {
  return Buffer.concat([tag, Buffer.alloc(4)]);
}

/** Everything a cursor is bound to, digested; it goes into the MAC and never into the text. */
function bindingDigest(binding: CursorBinding): Buffer {
  const { operation, canonicalInput, keySpec, keyFields, principal } = binding;
  return createHash("sha256")
    .update(JSON.stringify([operation, canonicalInput, keySpec, keyFields, principal]))
    .digest();
}

/** Three bits of a key's id: the cursor carries them so a reader tries only the keys that match. */
function keyHint(id: string): number {
  return itemAt(createHash("sha256").update(id).digest(), 0) & 7;
}

/** The values of `fields` in `after`, in their order; `after` must hold exactly those fields. */
function keyValues(after: Readonly<Record<string, unknown>>, fields: readonly string[]): KeyValue[] {
  const names = Object.keys(after);
  if (names.length !== fields.length || fields.some((field) => !Object.hasOwn(after, field))) {
    throw new Error(
      `a cursor holds the values of its binding's key fields (${fields.join(", ")}), not of ${names.join(", ") || "none"}`,
    );
  }
  return fields.map((field) => checkKeyValue(after[field]));
}
