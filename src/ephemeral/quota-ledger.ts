import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import type { ResourceStorage } from "../storage/storage.js";
import { EPHEMERAL_DEFAULTS, type EphemeralSettings } from "./ephemeral-settings.js";
import { ResourceLimitError } from "./resource-errors.js";

interface LedgerEntry {
  readonly creator: string;
  readonly size: number;
  /** Write number; 0 for entries found by listing storage. */
  readonly written: number;
}

/**
 * The per-owner and global byte quotas of ephemeral resources: what this instance believes
 * is stored, by resource, plus bytes promised to writes in progress. Loaded from storage
 * once (resources may have survived a restart), kept up to date by this instance's writes
 * and deletes, and reconciled with storage by every sweep and before any refusal (storage
 * may expire resources on its own: Redis TTLs, another instance).
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
    /** Told when a sweep deleted an expired resource of `owner` (null: a global one). */
    private readonly onExpiredDeleted: (owner: string | null) => void,
  ) {}

  /**
   * Refuses a write that would pass a quota, saying which one and by how much; otherwise
   * reserves its bytes in the same turn as the check, so concurrent writes cannot all pass.
   */
  async reserve(owner: string, bytes: number): Promise<void> {
    if (bytes <= 0) return;
    await this.load();
    if (this.refusal(owner, bytes)) await this.reconcile();
    const refusal = this.refusal(owner, bytes);
    if (refusal) throw new ResourceLimitError(refusal);
    add(this.pendingBytes, owner, bytes);
  }

  /** Settles what `reserve` promised, whether the write succeeded or not. */
  release(owner: string, bytes: number): void {
    add(this.pendingBytes, owner, -Math.max(0, bytes));
  }

  /** Records a finished write of a resource's current version. */
  recordWrite(id: string, creator: string, size: number): void {
    this.entries?.set(id, { creator, size, written: ++this.writes });
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
        if (meta.expiresAt > now)
          present.set(meta.id, { creator: meta.creator, size: meta.size, written: 0 });
        else if (deleteExpired && (await this.storage.delete(meta.id))) this.onExpiredDeleted(meta.owner);
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
  private refusal(owner: string, bytes: number): string | undefined {
    const perOwner = this.settings.maxBytesPerOwner ?? EPHEMERAL_DEFAULTS.maxBytesPerOwner;
    const total = this.settings.maxTotalBytes ?? EPHEMERAL_DEFAULTS.maxTotalBytes;
    let mine = this.pendingBytes.get(owner) ?? 0;
    let all = 0;
    for (const used of this.pendingBytes.values()) all += used;
    for (const entry of this.entries?.values() ?? []) {
      all += entry.size;
      if (entry.creator === owner) mine += entry.size;
    }
    if (mine + bytes > perOwner) {
      return `storing ${bytes} more bytes would pass your quota of ${sized(perOwner)} (${mine} bytes in use); delete or let older results expire, or have the server's ephemeral.maxBytesPerOwner setting raised (now ${perOwner})`;
    }
    if (all + bytes > total) {
      return `storing ${bytes} more bytes would pass the quota of all owners together, ${sized(total)} (${all} bytes in use); try again after older results expire, or have the server's ephemeral.maxTotalBytes setting raised (now ${total})`;
    }
    return undefined;
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
