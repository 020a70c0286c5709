import { createHash, hkdfSync, randomBytes } from "node:crypto";
import { itemAt } from "../common/guards.js";
import { FrugalConfigError } from "../errors/config-error.js";

/**
 * One secret, or several for rotation: the first signs new cursors, every one verifies.
 * Give every instance of an app the same list. Rotating without downtime takes three
 * rollouts, so no instance ever meets a cursor signed by a key it does not know:
 *
 * 1. `[old, new]` everywhere (old still signs; new is known everywhere);
 * 2. `[new, old]` everywhere (new signs; cursors signed by old still verify);
 * 3. after `cursorTtlMs` (24 hours by default), `[new]`: every cursor old signed has expired.
 *
 * A key's id travels in each cursor; it is derived from the secret, or given with
 * `{ id, secret }` (then keep the id with its secret). Two entries may not share an id.
 *
 * @example
 * ```ts
 * McpFactory.create(AppModule, {
 *   name: "articles",
 *   version: "1.0.0",
 *   cursorSecret: [
 *     { id: "2026-12", secret: process.env.CURSOR_KEY_CURRENT! },
 *     { id: "2026-11", secret: process.env.CURSOR_KEY_PREVIOUS! },
 *   ],
 * });
 * ```
 */
export type CursorSecret =
  | string
  | Uint8Array
  | ReadonlyArray<string | Uint8Array | { id: string; secret: string | Uint8Array }>;

/** A derived key pair: one for HMAC signing, one for AES encryption. */
export interface CursorKey {
  readonly id: string;
  readonly sign: Buffer;
  readonly encrypt: Buffer;
}

/** The keys of an app: `current` signs new cursors; `byId` verifies old ones. */
export interface CursorKeyring {
  readonly current: CursorKey;
  readonly byId: ReadonlyMap<string, CursorKey>;
  /** True when no secret was configured and a random per-process key is in use. */
  readonly ephemeral: boolean;
  /** True when a secret is shorter than 16 bytes: it works, but can be guessed more easily. */
  readonly weak: boolean;
}

/**
 * Derives separate signing and encryption keys from each secret (HKDF-SHA256), so one
 * secret never serves two purposes. A key's id is given, or derived from the secret.
 */
export function createKeyring(secret: CursorSecret | undefined): CursorKeyring {
  const ephemeral = secret === undefined;
  let weak = false;
  const entries = ephemeral
    ? [randomBytes(32)]
    : Array.isArray(secret)
      ? secret
      : [secret as string | Uint8Array];
  if (entries.length === 0)
    throw new FrugalConfigError("cursorSecret", "the list of secrets is empty", "give at least one secret");
  const keys = entries.map((entry) => {
    const material = typeof entry === "object" && entry !== null && "secret" in entry ? entry.secret : entry;
    const bytes = typeof material === "string" ? Buffer.from(material, "utf8") : Buffer.from(material);
    if (bytes.length === 0)
      throw new FrugalConfigError("cursorSecret", "a secret is empty", "give at least 16 random bytes");
    weak ||= bytes.length < 16;
    const id =
      typeof entry === "object" && entry !== null && "id" in entry
        ? entry.id
        : createHash("sha256").update(bytes).digest("base64url").slice(0, 6);
    if (!/^[A-Za-z0-9_-]{1,32}$/.test(id))
      throw new FrugalConfigError(
        "cursorSecret",
        `key id "${id}" is not allowed`,
        "use 1–32 of A-Z a-z 0-9 _ -",
      );
    const derive = (purpose: string) => Buffer.from(hkdfSync("sha256", bytes, Buffer.alloc(0), purpose, 32));
    return { id, sign: derive("frugal-mcp cursor signing"), encrypt: derive("frugal-mcp cursor encryption") };
  });
  const byId = new Map<string, CursorKey>();
  for (const key of keys) {
    // Two secrets under one id: cursors of one would be checked against the other, and fail.
    if (byId.has(key.id))
      throw new FrugalConfigError(
        "cursorSecret",
        `two keys have the id "${key.id}"`,
        "give each secret its own id (or list each secret once)",
      );
    byId.set(key.id, key);
  }
  return {
    current: itemAt(keys, 0),
    byId,
    ephemeral,
    weak,
  };
}
