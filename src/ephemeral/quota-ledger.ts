import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import type { ResourceStorage, StoredResourceMeta } from "../storage/storage.js";
import { EPHEMERAL_DEFAULTS, type EphemeralSettings } from "./ephemeral-settings.js";
import { ResourceLimitError } from "./resource-errors.js";

interface LedgerEntry {
  readonly creator: string;
  /** Who sees it (null: everyone), told when it is evicted. */
  readonly owner: string | null;
  readonly size: number;
  readonly createdAt: number;
  /** Write number; 0 for entries found by listing storage. */
  readonly written: number;
}

/** Why a write was refused: the writer's own quota, or the quota of all owners together. */
interface Refusal {
  readonly quota: "owner" | "total";
  readonly message: string;
}

/**
 * Whether a creator is anonymous: a session (`session:<id>`), not an authenticated
 * principal. Anonymous owners are free to mint (a new session is a new owner), so their
 * resources are the ones evicted when the quota of all owners together is reached.
 */
function isAnonymous(creator: string): boolean {
  return creator.startsWith("session:");
}

/**
 * The per-owner and global byte quotas of ephemeral resources: what this instance believes
 * is stored, by resource, plus bytes promised to writes in progress. Loaded from storage
 * once (resources may have survived a restart), kept up to date by this instance's writes
 * and deletes, and reconciled with storage by every sweep and before any refusal (storage
 * may expire resources on its own: Redis TTLs, another instance).
 *
 * Fair share of the global quota: each owner is held to `maxBytesPerOwner`, but anyone can
 * open sessions, each a new owner, until together they fill `maxTotalBytes`. So when a
 * write would pass the global quota, room is made by evicting resources of anonymous
 * (session) creators other than the writer: the oldest resource of the creator holding
 * the most bytes first, until the write fits. Rotating sessions therefore evict each
 * other's resources, never lock a newcomer out, and the owners holding least are evicted
 * last. Principals' resources are never evicted (they are accountable, and each is held to
 * its own quota); a write is refused only when what it needs is more than anonymous
 * creators other than the writer hold.
 */
export class QuotaLedger {
  private entries: Map<string, LedgerEntry> | undefined;
  private loading: Promise<void> | undefined;
  /** Increases with every write, so a reconciliation keeps writes that finished after its listing began. */
  private writes = 0;
  /** Bytes reserved by writes in progress, per creator: not in storage yet, but promised. */
  private readonly pendingBytes = new Map<string, number>();

  constructor(
    private readonly storage: ResourceStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: EphemeralSettings,
    /** Told when a sweep or an eviction deleted a resource of `owner` (null: a global one). */
    private readonly onDeleted: (owner: string | null) => void,
  ) {}

  /**
   * Refuses a write that would pass a quota, saying which one and by how much; otherwise
   * reserves its bytes in the same turn as the check, so concurrent writes cannot all pass.
   * A write that only passes the global quota evicts anonymous resources to fit (see above).
   */
  async reserve(owner: string, bytes: number): Promise<void> {
    if (bytes <= 0) return;
    await this.load();
    if (this.refusal(owner, bytes)) await this.reconcile();
    const refusal = this.refusal(owner, bytes);
    const victims = refusal?.quota === "total" ? this.evictionFor(owner, bytes) : undefined;
    if (refusal && !victims) throw new ResourceLimitError(refusal.message);
    // In the same turn as the check: the victims leave the ledger and the writer's bytes enter it.
    for (const [id] of victims ?? []) this.entries?.delete(id);
    add(this.pendingBytes, owner, bytes);
    if (victims) await this.evict(victims, owner);
  }

  /** Settles what `reserve` promised, whether the write succeeded or not. */
  release(owner: string, bytes: number): void {
    add(this.pendingBytes, owner, -Math.max(0, bytes));
  }

  /** Records a finished write of a resource's current version. */
  recordWrite(meta: StoredResourceMeta): void {
    const { id, creator, owner, size, createdAt } = meta;
    this.entries?.set(id, { creator, owner, size, createdAt, written: ++this.writes });
  }

  /** Forgets a deleted resource. */
  forget(id: string): void {
    this.entries?.delete(id);
  }

  /**
   * Makes the ledger match storage: adds what storage holds (and has not expired), drops
   * what it no longer holds, but keeps writes that finished after the listing began. With
   * `deleteExpired`, deletes expired resources in the same walk (the sweep).
   */
  async reconcile(deleteExpired = false): Promise<void> {
    const startedAfter = this.writes;
    const now = this.clock.now();
    const present = new Map<string, LedgerEntry>();
    try {
      for await (const meta of this.storage.list()) {
        if (meta.expiresAt > now) {
          const { creator, owner, size, createdAt } = meta;
          present.set(meta.id, { creator, owner, size, createdAt, written: 0 });
        } else if (deleteExpired && (await this.storage.delete(meta.id))) this.onDeleted(meta.owner);
      }
    } catch (error) {
      this.logger.warn("could not list stored resources (quotas and expiry)", error);
      this.entries ??= new Map();
      return;
    }
    for (const [id, entry] of this.entries ?? []) if (entry.written > startedAfter) present.set(id, entry);
    this.entries = present;
  }

  private load(): Promise<void> {
    if (this.entries) return Promise.resolve();
    this.loading ??= this.reconcile().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /**
   * Why a write of `bytes` more would pass a quota, or undefined. Each reason names the
   * setting that raises the quota and its current value, so whoever runs the server knows
   * what to change, and the client knows that waiting or deleting also helps.
   */
  private refusal(owner: string, bytes: number): Refusal | undefined {
    const perOwner = this.settings.maxBytesPerOwner ?? EPHEMERAL_DEFAULTS.maxBytesPerOwner;
    const total = this.totalQuota();
    let mine = this.pendingBytes.get(owner) ?? 0;
    let all = 0;
    for (const used of this.pendingBytes.values()) all += used;
    for (const entry of this.entries?.values() ?? []) {
      all += entry.size;
      if (entry.creator === owner) mine += entry.size;
    }
    if (mine + bytes > perOwner) {
      return {
        quota: "owner",
        message: `storing ${bytes} more bytes would pass your quota of ${sized(perOwner)} (${mine} bytes in use); delete or let older results expire, or have the server's ephemeral.maxBytesPerOwner setting raised (now ${perOwner})`,
      };
    }
    if (all + bytes > total) {
      return {
        quota: "total",
        message: `storing ${bytes} more bytes would pass the quota of all owners together, ${sized(total)} (${all} bytes in use); try again after older results expire, or have the server's ephemeral.maxTotalBytes setting raised (now ${total})`,
      };
    }
    return undefined;
  }

  private totalQuota(): number {
    return this.settings.maxTotalBytes ?? EPHEMERAL_DEFAULTS.maxTotalBytes;
  }

  /**
   * The resources to evict so that `bytes` more of `writer` fit the global quota: the
   * oldest resource of the anonymous creator (other than the writer) holding the most
   * bytes, again and again; undefined when even evicting all of theirs would not make room.
   */
  private evictionFor(writer: string, bytes: number): Array<[string, LedgerEntry]> | undefined {
    let all = 0;
    for (const used of this.pendingBytes.values()) all += used;
    const holders = new Map<string, { bytes: number; entries: Array<[string, LedgerEntry]> }>();
    for (const [id, entry] of this.entries ?? []) {
      all += entry.size;
      if (entry.creator === writer || !isAnonymous(entry.creator)) continue;
      let holder = holders.get(entry.creator);
      if (!holder) {
        holder = { bytes: 0, entries: [] };
        holders.set(entry.creator, holder);
      }
      holder.bytes += entry.size;
      holder.entries.push([id, entry]);
    }
    let need = all + bytes - this.totalQuota();
    let evictable = 0;
    for (const holder of holders.values()) evictable += holder.bytes;
    if (need > evictable) return undefined;
    const oldestFirst = (a: [string, LedgerEntry], b: [string, LedgerEntry]) =>
      a[1].createdAt - b[1].createdAt || a[1].written - b[1].written;
    for (const holder of holders.values()) holder.entries.sort(oldestFirst);
    const victims: Array<[string, LedgerEntry]> = [];
    while (need > 0) {
      let largest: { bytes: number; entries: Array<[string, LedgerEntry]> } | undefined;
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
      largest.bytes -= victim[1].size;
      need -= victim[1].size;
      victims.push(victim);
    }
    return victims;
  }

  /** Deletes evicted resources from storage (they already left the ledger); one that cannot be deleted comes back. */
  private async evict(victims: Array<[string, LedgerEntry]>, writer: string): Promise<void> {
    let freed = 0;
    await Promise.all(
      victims.map(async ([id, entry]) => {
        try {
          if (await this.storage.delete(id)) this.onDeleted(entry.owner);
          freed += entry.size;
        } catch (error) {
          this.logger.warn(`could not evict a resource of ${entry.creator} to make room`, error);
          this.entries?.set(id, entry);
        }
      }),
    );
    this.logger.info(
      `the quota of all owners together was reached: evicted ${victims.length} resource(s), ${freed} bytes, of the anonymous owners holding most, to store a result of ${writer}`,
    );
  }
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

/** Adds `bytes` (possibly negative) to an owner's count, never going below zero. */
function add(counts: Map<string, number>, owner: string, bytes: number): void {
  if (bytes === 0) return;
  const next = Math.max(0, (counts.get(owner) ?? 0) + bytes);
  if (next === 0) counts.delete(owner);
  else counts.set(owner, next);
}
