/**
 * Small records written once and read back by key, held by a provider that every instance
 * sharing it sees (a shared cache or session store offers them). Outside any cache namespace:
 * an invalidation never drops them.
 *
 * @example
 * ```ts
 * const earlier = await records.claim("state:ab12", '{"running":true}', 600_000);
 * if (earlier === undefined) await records.put("state:ab12", '{"done":1}', 600_000); // first claim
 * ```
 */
export interface OnceRecords {
  /** Stores `value` unless `key` holds one; resolves to what it held, or `undefined` when this call stored it. */
  claim(key: string, value: string, ttlMs: number): Promise<string | undefined>;
  /** Overwrites the record of `key`. */
  put(key: string, value: string, ttlMs: number): Promise<void>;
}
