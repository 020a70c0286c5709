/** The entry a `SteadyMap` keeps so that it never empties; no caller can make this key. */
const KEEP = Symbol("steady-map.keep");

/**
 * A `Map` for entries that come and go one at a time on a hot path (a request from its
 * arrival to its answer). V8 shrinks a Map's table, allocating a new one, whenever a delete
 * leaves it nearly empty, so a plain Map that goes 0 → 1 → 0 entries on every request makes
 * garbage on every request. This one holds a hidden entry and never empties; it shows only
 * the entries put in it.
 *
 * @example
 * ```ts
 * const unanswered = new SteadyMap<RequestId, string>();
 * unanswered.set(7, "tools/call");
 * unanswered.delete(7); // true; unanswered.size === 0, and no table was reallocated
 * ```
 */
export class SteadyMap<K, V> implements Iterable<[K, V]> {
  readonly #entries = new Map<K | typeof KEEP, V | undefined>([[KEEP, undefined]]);

  get size(): number {
    return this.#entries.size - 1;
  }

  set(key: K, value: V): this {
    this.#entries.set(key, value);
    return this;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  delete(key: K): boolean {
    return this.#entries.delete(key);
  }

  /** The keys put in, oldest first. */
  *keys(): IterableIterator<K> {
    for (const key of this.#entries.keys()) if (key !== KEEP) yield key as K;
  }

  *[Symbol.iterator](): IterableIterator<[K, V]> {
    for (const [key, value] of this.#entries) if (key !== KEEP) yield [key as K, value as V];
  }
}
