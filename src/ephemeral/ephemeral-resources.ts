import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import { newResourceId } from "../storage/resource-id.js";
import { type ResourceStorage, StorageError, type StoredResourceMeta } from "../storage/storage.js";
import { encodeContent } from "./content-index.js";
import type { EphemeralSettings } from "./ephemeral-settings.js";
import { EPHEMERAL_SCHEME, ephemeralUri, idOfEphemeralUri } from "./ephemeral-uri.js";
import { QuotaLedger } from "./quota-ledger.js";
import { ResourceNotFoundError } from "./resource-errors.js";

/** Options of one resource being created. */
export interface CreateResourceOptions {
  /** The tool that made it (the URI's host part). */
  tool?: string;
  name?: string;
  description?: string;
  mimeType?: string;
  ttl?: number;
  /** `"owner"` (default) or `"global"`. */
  scope?: "owner" | "global";
}

/**
 * Creates, reads, updates and deletes ephemeral resources for owners, over any
 * `ResourceStorage`. Enforces visibility (another owner gets "not found", never the
 * data), expiry by the app's clock, and per-owner and global byte quotas.
 */
export class EphemeralResources {
  /** Bytes stored and promised per creator, checked before every write. */
  private readonly quota: QuotaLedger;
  private readonly updates = new Map<string, Promise<unknown>>();
  private sweeper: NodeJS.Timeout | undefined;
  /** Called when an owner's list of resources changed (null: a global resource). */
  onListChanged: (owner: string | null) => void = () => {};

  constructor(
    readonly storage: ResourceStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly settings: EphemeralSettings = {},
  ) {
    this.quota = new QuotaLedger(storage, clock, logger, settings, (owner) => this.onListChanged(owner));
  }

  /** Starts sweeping expired resources on a timer that never keeps the process alive. */
  startSweeping(): void {
    this.sweeper = setInterval(() => void this.sweep(), this.settings.sweepIntervalMs ?? 60_000);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
  }

  async create(value: unknown, options: CreateResourceOptions, creator: string): Promise<StoredResourceMeta> {
    const encoded = encodeContent(value, options.mimeType);
    const id = newResourceId();
    const now = this.clock.now();
    const meta: StoredResourceMeta = {
      id,
      uri: ephemeralUri(options.tool ?? "resource", id),
      owner: options.scope === "global" ? null : creator,
      creator,
      name: options.name ?? options.tool ?? "result",
      ...(options.description === undefined ? {} : { description: options.description }),
      mimeType: encoded.mimeType,
      kind: encoded.kind,
      size: encoded.content.length,
      total: encoded.total,
      version: 1,
      createdAt: now,
      expiresAt: now + (options.ttl ?? this.settings.defaultTtlMs ?? 3_600_000),
    };
    await this.quota.reserve(creator, meta.size);
    await this.store(meta, encoded.content, encoded.index, creator, meta.size);
    this.onListChanged(meta.owner);
    return meta;
  }

  /** Replaces the content of a resource its caller created; the version goes up by one. */
  async update(uri: string, value: unknown, caller: string): Promise<StoredResourceMeta> {
    // Two racing updates would both write version N + 1; in turn, each builds on the last.
    return this.serialized(idOfEphemeralUri(uri) ?? uri, () => this.updateNow(uri, value, caller));
  }

  private async updateNow(uri: string, value: unknown, caller: string): Promise<StoredResourceMeta> {
    const current = await this.ownedBy(uri, caller);
    const encoded = encodeContent(value, current.mimeType);
    const meta: StoredResourceMeta = {
      ...current,
      kind: encoded.kind,
      size: encoded.content.length,
      total: encoded.total,
      version: current.version + 1,
    };
    await this.quota.reserve(caller, meta.size - current.size);
    await this.store(meta, encoded.content, encoded.index, caller, meta.size - current.size);
    return meta;
  }

  /** Runs `work` once every earlier update of the same resource (in this process) has finished. */
  private serialized<T>(id: string, work: () => Promise<T>): Promise<T> {
    const run = (this.updates.get(id) ?? Promise.resolve()).then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.updates.set(id, settled);
    void settled.then(() => {
      if (this.updates.get(id) === settled) this.updates.delete(id);
    });
    return run;
  }

  /** Deletes a resource its caller created; false when there was none to delete. */
  async delete(uri: string, caller: string): Promise<boolean> {
    const meta = await this.stat(uri, caller);
    if (!meta || meta.creator !== caller) return false;
    const deleted = await this.storage.delete(meta.id);
    if (deleted) {
      this.quota.forget(meta.id);
      this.onListChanged(meta.owner);
    }
    return deleted;
  }

  /** Metadata of a resource `caller` may see, or undefined (missing, expired or someone else's). */
  async stat(uri: string, caller: string): Promise<StoredResourceMeta | undefined> {
    const id = idOfEphemeralUri(uri);
    if (!id) return undefined;
    const meta = await this.storage.stat(id);
    if (!meta || meta.uri !== uri || meta.expiresAt <= this.clock.now()) return undefined;
    return meta.owner === null || meta.owner === caller ? meta : undefined;
  }

  /** Resources `caller` may see, newest first. */
  async list(caller: string): Promise<StoredResourceMeta[]> {
    const now = this.clock.now();
    const visible: StoredResourceMeta[] = [];
    for await (const meta of this.storage.list()) {
      if (meta.expiresAt > now && (meta.owner === null || meta.owner === caller)) visible.push(meta);
    }
    return visible.sort((a, b) => b.createdAt - a.createdAt);
  }

  /** Whole content of a visible resource (for `resources/read`). */
  async readAll(meta: StoredResourceMeta): Promise<Buffer> {
    return Buffer.from(await this.storage.read(meta.id, meta.version, "content", 0, meta.size));
  }

  /** Deletes everything an owner created (when its session ends, if configured). */
  async deleteOwnedBy(owner: string): Promise<void> {
    for await (const meta of this.storage.list()) {
      if (meta.creator === owner && (await this.storage.delete(meta.id).catch(() => false))) {
        this.quota.forget(meta.id);
      }
    }
  }

  /** True for URIs of this scheme (so `resources/read` knows where to look). */
  static handles(uri: string): boolean {
    return uri.startsWith(EPHEMERAL_SCHEME);
  }

  private async ownedBy(uri: string, caller: string): Promise<StoredResourceMeta> {
    const meta = await this.stat(uri, caller);
    if (!meta || meta.creator !== caller)
      throw new ResourceNotFoundError(uri, "no resource you created exists there; it may have expired");
    return meta;
  }

  /** Writes a version; settles what `reserve` promised, whether the write succeeds or not. */
  private async store(
    meta: StoredResourceMeta,
    content: Buffer,
    index: Buffer,
    creator: string,
    delta: number,
  ) {
    try {
      await this.storage.put(meta, content, index);
    } catch (error) {
      this.logger.error(`storing ${meta.uri} failed`, error);
      const reason = error instanceof StorageError ? error.message : "the storage backend failed";
      throw new StorageError(`could not store the result (${reason}); nothing was saved`);
    } finally {
      this.quota.release(creator, delta);
    }
    this.quota.recordWrite(meta.id, creator, meta.size);
  }

  /** Deletes expired resources and reconciles the quota ledger in the same walk. */
  private async sweep(): Promise<void> {
    await this.quota.reconcile(true);
  }
}
