/** Pairs remembered by default: about 1 MB at most, whatever the URIs' length. */
const DEFAULT_CAPACITY = 16_384;

/**
 * Remembers which owner read which resource URI, to count re-reads (a model reading the
 * same resource again, often a sign that it lost what it read or that caching would pay).
 * Memory is bounded: it keeps a 53-bit hash of each (owner, URI) pair, never the strings,
 * and forgets the least recently read pair past `capacity`. A pair forgotten (or, about
 * once in 10^11 reads, two pairs with one hash) makes the count slightly off; it is a
 * statistic, never a decision.
 *
 * @example
 * ```ts
 * const rereads = new RereadTracker();
 * rereads.read("session:a", "config://app"); // false: first read
 * rereads.read("session:a", "config://app"); // true: a re-read
 * ```
 */
export class RereadTracker {
  // A Map keeps insertion order: its first key is the least recently read pair.
  private readonly seen = new Map<number, true>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  /** Records a read of `uri` by `owner`; true when that owner had read it before. */
  read(owner: string, uri: string): boolean {
    const key = pairHash(owner, uri);
    const again = this.seen.delete(key);
    this.seen.set(key, true);
    if (!again && this.seen.size > this.capacity) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return again;
  }
}

/** A 53-bit hash (cyrb53) of the pair; the owner's length first keeps ("ab", "c") apart from ("a", "bc"). */
function pairHash(owner: string, uri: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const mix = (code: number) => {
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  };
  mix(owner.length);
  for (let i = 0; i < owner.length; i++) mix(owner.charCodeAt(i));
  for (let i = 0; i < uri.length; i++) mix(uri.charCodeAt(i));
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
