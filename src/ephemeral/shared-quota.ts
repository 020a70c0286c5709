import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import type { ResourceStorage, SharedUsage, StoredResourceMeta } from "../storage/storage.js";
import type { EphemeralSettings } from "./ephemeral-settings.js";
import {
  chooseEvictions,
  ownerQuota,
  type QuotaBook,
  quotaMessage,
  type SettleWrite,
  totalQuota,
} from "./quota-book.js";
import { ResourceLimitError } from "./resource-errors.js";

/**
 * Quotas counted by the storage itself (`RedisStorage.usage`), so they hold across every
 * instance on it: each write claims its bytes in one atomic step that checks both quotas
 * for all instances together, and a write that fails takes them back. When the quota of
 * all owners together is reached, the same rule as in one process makes room: the oldest
 * resources of the anonymous creators holding most are evicted (read from the shared
 * ledger, the rare path), then the claim is tried once more.
 */
export class SharedQuota implements QuotaBook {
  constructor(
    private readonly usage: SharedUsage,
    private readonly storage: ResourceStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: EphemeralSettings,
    private readonly onDeleted: (owner: string | null) => void,
  ) {}

  async reserve(meta: StoredResourceMeta, _replacedSize: number): Promise<SettleWrite> {
    const limits = { perCreator: ownerQuota(this.settings), total: totalQuota(this.settings) };
    for (let attempt = 0; ; attempt++) {
      const claim = await this.usage.claim(meta, limits, this.clock.now());
      if (claim.granted) return async (written) => (written ? undefined : claim.revert().catch(() => {}));
      const limit = claim.quota === "owner" ? limits.perCreator : limits.total;
      const refused = new ResourceLimitError(quotaMessage(claim.quota, meta.size, claim.used, limit));
      if (claim.quota === "owner" || attempt > 0) throw refused;
      if (!(await this.makeRoom(meta, claim.used + meta.size - limits.total))) throw refused;
    }
  }

  /** The shared ledger forgets a resource when the storage deletes it. */
  forget(_id: string): void {}

  /** Expired records leave the ledger as claims go by, and the storage expires its keys itself. */
  async sweep(): Promise<void> {}

  async owned(): Promise<undefined> {
    return undefined;
  }

  /** Evicts anonymous creators' resources to free `need` bytes; false when they do not hold enough. */
  private async makeRoom(meta: StoredResourceMeta, need: number): Promise<boolean> {
    const records = await this.usage.records(this.clock.now());
    const victims = chooseEvictions(
      records.filter((record) => record.id !== meta.id).map((record) => ({ ...record, written: 0 })),
      meta.creator,
      need,
    );
    if (!victims) return false;
    let freed = 0;
    for (const victim of victims) {
      try {
        if (await this.storage.delete(victim.id)) this.onDeleted(victim.owner);
        freed += victim.size;
      } catch (error) {
        this.logger.warn(`could not evict a resource of ${victim.creator} to make room`, error);
      }
    }
    this.logger.info(
      `the quota of all owners together was reached: evicted ${victims.length} resource(s), ${freed} bytes, of the anonymous owners holding most, to store a result of ${meta.creator}`,
    );
    return true;
  }
}
