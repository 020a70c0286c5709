import { isAnonymousOwner } from "../pipeline/owners.js";
import type { StoredResourceMeta } from "../storage/storage.js";
import { EPHEMERAL_DEFAULTS, type EphemeralSettings } from "./ephemeral-settings.js";

/** Settles a reservation once its write is over: `written` false takes its bytes back. */
export type SettleWrite = (written: boolean) => Promise<void>;

/**
 * Where the manager counts the bytes of stored results against the per-owner and global
 * quotas. `QuotaLedger` counts in this process (single-instance storages); `SharedQuota`
 * counts in the storage itself (`RedisStorage`), for every instance at once.
 */
export interface QuotaBook {
  /**
   * Reserves room for a version about to be written, replacing `replacedSize` live bytes
   * of the same resource, or throws a `ResourceLimitError` that names the quota and the
   * setting that raises it. The returned function is called once the write is over.
   */
  reserve(meta: StoredResourceMeta, replacedSize: number): Promise<SettleWrite>;
  /** Forgets a resource the manager deleted. */
  forget(id: string): void;
  /** Periodic upkeep: expired resources deleted, counts made to match storage. */
  sweep(): Promise<void>;
  /**
   * Ids of the resources of `owner` (null: global ones), when this book indexes them
   * (the manager then lists through it); undefined when the storage lists by owner.
   */
  owned(owner: string | null): Promise<readonly string[] | undefined>;
}

/** The per-owner quota in force. */
export function ownerQuota(settings: EphemeralSettings): number {
  return settings.maxBytesPerOwner ?? EPHEMERAL_DEFAULTS.maxBytesPerOwner;
}

/** The quota of all owners together. */
export function totalQuota(settings: EphemeralSettings): number {
  return settings.maxTotalBytes ?? EPHEMERAL_DEFAULTS.maxTotalBytes;
}

/**
 * Why a write was refused. Each reason names the setting that raises the quota and its
 * current value, so whoever runs the server knows what to change, and the client knows
 * that waiting or deleting also helps.
 */
export function quotaMessage(quota: "owner" | "total", bytes: number, used: number, limit: number): string {
  return quota === "owner"
    ? `storing ${bytes} more bytes would pass your quota of ${sized(limit)} (${used} bytes in use); delete or let older results expire, or have the server's ephemeral.maxBytesPerOwner setting raised (now ${limit})`
    : `storing ${bytes} more bytes would pass the quota of all owners together, ${sized(limit)} (${used} bytes in use); try again after older results expire, or have the server's ephemeral.maxTotalBytes setting raised (now ${limit})`;
}

/**
 * Whether a creator is anonymous: a session (`session:<id>`) or a sessionless anonymous
 * caller (`anonymous:<id>`), not an authenticated principal. Anonymous owners are free to mint (a new session is a new owner), so their
 * resources are the ones evicted when the quota of all owners together is reached.
 */
export function isAnonymous(creator: string): boolean {
  return creator.startsWith("session:") || isAnonymousOwner(creator);
}

/** What eviction needs to know of a resource. */
export interface EvictionCandidate {
  readonly id: string;
  readonly creator: string;
  readonly owner: string | null;
  readonly size: number;
  readonly createdAt: number;
  /** Tie-break between resources created in the same millisecond (write order). */
  readonly written: number;
}

/**
 * The resources to evict so that `need` bytes are freed: the oldest resource of the
 * anonymous creator (other than `writer`) holding the most bytes, again and again;
 * undefined when even evicting all of theirs would not free enough.
 */
export function chooseEvictions(
  candidates: Iterable<EvictionCandidate>,
  writer: string,
  need: number,
): EvictionCandidate[] | undefined {
  const holders = new Map<string, { bytes: number; entries: EvictionCandidate[] }>();
  for (const entry of candidates) {
    if (entry.creator === writer || !isAnonymous(entry.creator)) continue;
    let holder = holders.get(entry.creator);
    if (!holder) {
      holder = { bytes: 0, entries: [] };
      holders.set(entry.creator, holder);
    }
    holder.bytes += entry.size;
    holder.entries.push(entry);
  }
  let evictable = 0;
  for (const holder of holders.values()) evictable += holder.bytes;
  if (need > evictable) return undefined;
  const oldestFirst = (a: EvictionCandidate, b: EvictionCandidate) =>
    a.createdAt - b.createdAt || a.written - b.written;
  for (const holder of holders.values()) holder.entries.sort(oldestFirst);
  const victims: EvictionCandidate[] = [];
  let left = need;
  while (left > 0) {
    let largest: { bytes: number; entries: EvictionCandidate[] } | undefined;
    for (const holder of holders.values()) {
      const head = holder.entries[0];
      if (!head) continue;
      const largestHead = largest?.entries[0];
      if (
        !largest ||
        !largestHead ||
        holder.bytes > largest.bytes ||
        (holder.bytes === largest.bytes && oldestFirst(head, largestHead) < 0)
      )
        largest = holder;
    }
    const victim = largest?.entries.shift();
    if (!largest || !victim) return undefined;
    largest.bytes -= victim.size;
    left -= victim.size;
    victims.push(victim);
  }
  return victims;
}

/** `268435456 bytes (256 MiB)`. */
function sized(bytes: number): string {
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = "";
  for (const next of units) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  if (unit === "") return `${bytes} bytes`;
  return `${bytes} bytes (${Number.isInteger(value) ? value : value.toFixed(1)} ${unit})`;
}
