import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import type { ResourceStorage, StoredResourceMeta } from "../storage/storage.js";
import type { EphemeralSettings } from "./ephemeral-settings.js";
import {
  chooseEvictions,
  type EvictionCandidate,
  ownerQuota,
  type QuotaBook,
  quotaMessage,
  type SettleWrite,
  totalQuota,
} from "./quota-book.js";
import { ResourceLimitError } from "./resource-errors.js";

type LedgerEntry = EvictionCandidate;

/** Why a write was refused: the writer's own quota, or the quota of all owners together. */
interface Refusal {
  readonly quota: "owner" | "total";
  readonly message: string;
}

/**
 * The per-owner and global byte quotas of ephemeral resources, counted in this process:
 * what this instance believes is stored, by resource, plus bytes promised to writes in
 * progress. Loaded from storage once (resources may have survived a restart), kept up to
 * date by this instance's writes and deletes, and reconciled with storage by every sweep
 * and before any refusal (storage may expire resources on its own). Sums per creator and
 * an index of ids per owner are kept alongside, so a check costs O(1) and listing one
 * owner's resources costs their number, however many others hold.
 *
 * Fair share of the global quota: each owner is held to `maxBytesPerOwner`, but anyone can
 * open sessions, each a new owner, until together they fill `maxTotalBytes`. So when a
 * write would pass the global quota, room is made by evicting resources of anonymous
 * (session) creators other than the writer (see `chooseEvictions`). Principals' resources
 * are never evicted; a write is refused only when what it needs is more than anonymous
 * creators other than the writer hold.
 */
export class QuotaLedger implements QuotaBook {
  private entries: Map<string, LedgerEntry> | undefined;
  /** Bytes of `entries` per creator, and in all. */
  private readonly usedBy = new Map<string, number>();
  private usedTotal = 0;
  /** Ids of `entries` per owner (null: global). */
  private readonly byOwner = new Map<string | null, Set<string>>();
  private loading: Promise<void> | undefined;
  /** Increases with every write, so a reconciliation keeps writes that finished after its listing began. */
  private writes = 0;
  /** Bytes reserved by writes in progress, per creator: not in storage yet, but promised. */
  private readonly pendingBytes = new Map<string, number>();
  private pendingTotal = 0;

  constructor(
    private readonly storage: ResourceStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: EphemeralSettings,
    /** Told when a sweep or an eviction deleted a resource of `owner` (null: a global one). */
    private readonly onDeleted: (owner: string | null) => void,
  ) {}

  async reserve(meta: StoredResourceMeta, replacedSize: number): Promise<SettleWrite> {
    const { creator } = meta;
    const delta = meta.size - replacedSize;
    await this.reserveBytes(creator, delta);
    return async (written) => {
      this.release(creator, delta);
      if (written) this.recordWrite(meta);
    };
  }

  /**
   * Refuses a write that would pass a quota, saying which one and by how much; otherwise
   * reserves its bytes in the same turn as the check, so concurrent writes cannot all pass.
   * A write that only passes the global quota evicts anonymous resources to fit (see above).
   */
  async reserveBytes(owner: string, bytes: number): Promise<void> {
    if (bytes <= 0) return;
    await this.load();
    if (this.refusal(owner, bytes)) await this.reconcile();
    const refusal = this.refusal(owner, bytes);
    const victims =
      refusal?.quota === "total"
        ? chooseEvictions(
            this.entries?.values() ?? [],
            owner,
            this.usedTotal + this.pendingTotal + bytes - totalQuota(this.settings),
          )
        : undefined;
    if (refusal && !victims) throw new ResourceLimitError(refusal.message);
    // In the same turn as the check: the victims leave the ledger and the writer's bytes enter it.
    for (const victim of victims ?? []) this.remove(victim.id);
    this.addPending(owner, bytes);
    if (victims) await this.evict(victims, owner);
  }

  /** Settles what `reserveBytes` promised, whether the write succeeded or not. */
  release(owner: string, bytes: number): void {
    this.addPending(owner, -Math.max(0, bytes));
  }

  /** Records a finished write of a resource's current version. */
  recordWrite(meta: StoredResourceMeta): void {
    if (!this.entries) return;
    const { id, creator, owner, size, createdAt } = meta;
    this.put({ id, creator, owner, size, createdAt, written: ++this.writes });
  }

  forget(id: string): void {
    this.remove(id);
  }

  async sweep(): Promise<void> {
    await this.reconcile(true);
  }

  async owned(owner: string | null): Promise<readonly string[]> {
    await this.load();
    return [...(this.byOwner.get(owner) ?? [])];
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
          const { id, creator, owner, size, createdAt } = meta;
          present.set(id, { id, creator, owner, size, createdAt, written: 0 });
        } else if (deleteExpired && (await this.storage.delete(meta.id))) this.onDeleted(meta.owner);
      }
    } catch (error) {
      this.logger.warn("could not list stored resources (quotas and expiry)", error);
      if (!this.entries) this.replaceAll(new Map());
      return;
    }
    for (const [id, entry] of this.entries ?? []) if (entry.written > startedAfter) present.set(id, entry);
    this.replaceAll(present);
  }

  private load(): Promise<void> {
    if (this.entries) return Promise.resolve();
    this.loading ??= this.reconcile().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  /** Why a write of `bytes` more would pass a quota, or undefined. */
  private refusal(owner: string, bytes: number): Refusal | undefined {
    const perOwner = ownerQuota(this.settings);
    const total = totalQuota(this.settings);
    const mine = (this.pendingBytes.get(owner) ?? 0) + (this.usedBy.get(owner) ?? 0);
    const all = this.pendingTotal + this.usedTotal;
    if (mine + bytes > perOwner)
      return { quota: "owner", message: quotaMessage("owner", bytes, mine, perOwner) };
    if (all + bytes > total) return { quota: "total", message: quotaMessage("total", bytes, all, total) };
    return undefined;
  }

  private replaceAll(entries: Map<string, LedgerEntry>): void {
    this.entries = new Map();
    this.usedBy.clear();
    this.usedTotal = 0;
    this.byOwner.clear();
    for (const entry of entries.values()) this.put(entry);
  }

  private put(entry: LedgerEntry): void {
    this.remove(entry.id);
    this.entries?.set(entry.id, entry);
    add(this.usedBy, entry.creator, entry.size);
    this.usedTotal += entry.size;
    let ids = this.byOwner.get(entry.owner);
    if (!ids) {
      ids = new Set();
      this.byOwner.set(entry.owner, ids);
    }
    ids.add(entry.id);
  }

  private remove(id: string): void {
    const entry = this.entries?.get(id);
    if (!entry) return;
    this.entries?.delete(id);
    add(this.usedBy, entry.creator, -entry.size);
    this.usedTotal -= entry.size;
    const ids = this.byOwner.get(entry.owner);
    ids?.delete(id);
    if (ids?.size === 0) this.byOwner.delete(entry.owner);
  }

  private addPending(owner: string, bytes: number): void {
    const before = this.pendingBytes.get(owner) ?? 0;
    add(this.pendingBytes, owner, bytes);
    this.pendingTotal += (this.pendingBytes.get(owner) ?? 0) - before;
  }

  /** Deletes evicted resources from storage (they already left the ledger); one that cannot be deleted comes back. */
  private async evict(victims: readonly LedgerEntry[], writer: string): Promise<void> {
    let freed = 0;
    await Promise.all(
      victims.map(async (entry) => {
        try {
          if (await this.storage.delete(entry.id)) this.onDeleted(entry.owner);
          freed += entry.size;
        } catch (error) {
          this.logger.warn(`could not evict a resource of ${entry.creator} to make room`, error);
          this.put(entry);
        }
      }),
    );
    this.logger.info(
      `the quota of all owners together was reached: evicted ${victims.length} resource(s), ${freed} bytes, of the anonymous owners holding most, to store a result of ${writer}`,
    );
  }
}

/** Adds `bytes` (possibly negative) to an owner's count, never going below zero. */
function add(counts: Map<string, number>, owner: string, bytes: number): void {
  if (bytes === 0) return;
  const next = Math.max(0, (counts.get(owner) ?? 0) + bytes);
  if (next === 0) counts.delete(owner);
  else counts.set(owner, next);
}
