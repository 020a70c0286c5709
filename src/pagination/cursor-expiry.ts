/**
 * When a cursor expires, in 16 bits. The expiry is counted in units of 4^exponent ms, the
 * smallest unit that lets 2,048 units span the lifetime with a quarter to spare (1 ms for a
 * lifetime up to 1.6 s; 65.5 s for 24 hours, so a cursor lives between 23 h 58 min 54.5 s and
 * 24 h). The cursor carries the exponent (4 bits) and the count modulo 4,096 (12 bits); a
 * reader takes the count nearest to its own clock. The whole count is in the MAC, so a
 * reader that guesses wrong, or a client that changes it, fails the MAC.
 *
 * The unit travels in the cursor, so an instance with another `cursorTtlMs` still reads it.
 *
 * @example
 * ```ts
 * const expiry = expiryAfter(now, 24 * 60 * 60 * 1000); // { exponent: 8, count: … }
 * nearestExpiries(expiry.exponent, carriedCount(expiry), now)[0]; // the same expiry
 * ```
 */
export interface Expiry {
  /** The unit is 4^exponent ms (0–15). */
  readonly exponent: number;
  /** The cursor is valid until `count × unit` ms since the epoch (excluded). */
  readonly count: number;
}

const CARRIED = 4096;
const MAX_EXPONENT = 15;

/** The expiry of a cursor issued at `now` that lives `ttlMs`: never later than `now + ttlMs`. */
export function expiryAfter(now: number, ttlMs: number): Expiry {
  let exponent = 0;
  while (exponent < MAX_EXPONENT && (CARRIED / 2) * 4 ** exponent < 1.25 * ttlMs) exponent++;
  const unit = 4 ** exponent;
  return { exponent, count: Math.max(Math.floor((now + ttlMs) / unit), Math.floor(now / unit) + 1) };
}

/** The instant (epoch ms) at which a cursor with this expiry stops being valid. */
export function expiresAt(expiry: Expiry): number {
  return expiry.count * 4 ** expiry.exponent;
}

/** What a cursor carries of its expiry's count (12 bits). */
export function carriedCount(expiry: Expiry): number {
  return ((expiry.count % CARRIED) + CARRIED) % CARRIED;
}

/**
 * The expiries a carried count may stand for, most likely first: the one nearest to `now`
 * (within 2,048 units either way), then four that ended one to four cycles before it (a cycle
 * is 4,096 units: 3.1 days for a 24-hour lifetime), so a cursor expired long ago is still
 * told apart from an altered one.
 */
export function nearestExpiries(exponent: number, carried: number, now: number): Expiry[] {
  const here = Math.floor(now / 4 ** exponent);
  let count = here + ((((carried - here) % CARRIED) + CARRIED) % CARRIED);
  if (count - here > CARRIED / 2) count -= CARRIED;
  return [0, 1, 2, 3, 4].map((cycles) => ({ exponent, count: count - cycles * CARRIED }));
}
