import { createCipheriv } from "node:crypto";
import { itemAt } from "../common/guards.js";

/** The 66 characters a cursor is written with: base64url's, then `.` and `~`. */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~";
const INDEX = new Map([...ALPHABET].map((char, i) => [char, i]));
/** Keystream bytes at or past this are skipped, so each shift is uniform over the 66 characters. */
const UNIFORM_BELOW = 3 * ALPHABET.length;

/**
 * Encrypts (`direction` 1) or decrypts (−1) cursor text character by character: each
 * character moves by a shift drawn from the AES-256-CTR keystream of `key` and `iv`, modulo
 * the 66 characters of the cursor alphabet. The ciphertext is exactly as long as the text
 * and written with the same characters, so an encrypted cursor is its signed text's length
 * plus its nonce (and one character for its kind). Integrity is the caller's: the SIV MAC.
 *
 * @example
 * ```ts
 * const hidden = shiftText("3intro-to-paging", key, iv, 1); // 16 characters of the alphabet
 * shiftText(hidden, key, iv, -1); // "3intro-to-paging"
 * ```
 */
export function shiftText(text: string, key: Buffer, iv: Buffer, direction: 1 | -1): string {
  const stream = createCipheriv("aes-256-ctr", key, iv);
  let pool = Buffer.alloc(0);
  let at = 0;
  let out = "";
  for (const char of text) {
    const index = INDEX.get(char);
    if (index === undefined) throw new RangeError(`"${char}" is not a cursor character`);
    let byte: number;
    do {
      if (at === pool.length) {
        pool = stream.update(Buffer.alloc(64));
        at = 0;
      }
      byte = itemAt(pool, at++);
    } while (byte >= UNIFORM_BELOW);
    const shift = byte % ALPHABET.length;
    out += ALPHABET[(index + direction * shift + ALPHABET.length) % ALPHABET.length];
  }
  return out;
}
