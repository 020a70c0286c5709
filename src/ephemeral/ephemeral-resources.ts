import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import { newResourceId } from "../storage/resource-id.js";
import { type ResourceStorage, StorageError, type StoredResourceMeta } from "../storage/storage.js";
import { encodeContent } from "./content-index.js";
import { EPHEMERAL_SCHEME, ephemeralUri, idOfEphemeralUri } from "./ephemeral-uri.js";

/** App-wide settings of ephemeral resources (`McpFactory.create(…, { ephemeral })`). */
export interface EphemeralSettings {
  /** Lifetime when none is given (default one hour). */
  defaultTtlMs?: number;
  /** Bytes one owner may hold at once (default 64 MiB). */
  maxBytesPerOwner?: number;
  /** Bytes all owners may hold at once (default 1 GiB). */
  maxTotalBytes?: number;
  /** Delete a session's resources when it ends (default false; the TTL bounds them anyway). */
  deleteOnSessionEnd?: boolean;
  /** How often expired resources are swept (default one minute). */
  sweepIntervalMs?: number;
  /** Name of the slice-reading tool (default `read_resource`). */
  readToolName?: string;
  /** Name of the search tool (default `search_resource`). */
  searchToolName?: string;
  /** Register the resource tools even when no method is `@Ephemeral` (for `ctx.resources.create`). */
  tools?: boolean;
  /**
   * Largest resource `resources/read` returns whole (default 16 MiB); a larger one is read
   * in slices with the resource tools, so no single response holds hundreds of megabytes.
   */
  maxReadBytes?: number;
}

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

/** A quota or input problem the client can act on (too large, too many, a quota reached). */
export class ResourceLimitError extends Error {
  override readonly name = "ResourceLimitError";
}

/** No resource at that URI that this caller may see: it never existed, expired, or is someone else's. */
export class ResourceNotFoundError extends Error {
  override readonly name = "ResourceNotFoundError";
  constructor(
    readonly uri: string,
    detail = "it may have expired or belong to another owner",
  ) {
    super(`Resource not found: ${uri} (${detail})`);
  }
}

/**
 * Creates, reads, updates and deletes ephemeral resources for owners, over any
 * `ResourceStorage`. Enforces visibility (another owner gets "not found", never the
 * data), expiry by the app's clock, and per-owner and global byte quotas.
 */
export class EphemeralResources {
  /**
   * What this instance believes is stored, by resource: the quota ledger. Loaded from
   * storage once (resources may have survived a restart), kept up to date by this
   * instance's writes and deletes, and reconciled with storage by every sweep and before
   * any refusal (storage may expire resources on its own: Redis TTLs, another instance).
   */
  private ledger: Map<string, { creator: string; size: number; written: number }> | undefined;
  private loadingLedger: Promise<void> | undefined;
  /** Increases with every write, so a reconciliation keeps writes that finished after its listing began. */
  private writes = 0;
  /** Bytes reserved by writes in progress, per creator: not in storage yet, but promised. */
  private readonly pendingBytes = new Map<string, number>();
  private readonly updates = new Map<string, Promise<unknown>>();
  private sweeper: NodeJS.Timeout | undefined;
  /** Called when an owner's list of resources changed (null: a global resource). */
  onListChanged: (owner: string | null) => void = () => {};

  constructor(
    readonly storage: ResourceStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly settings: EphemeralSettings = {},
  ) {}

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
    await this.reserve(creator, meta.size);
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
    await this.reserve(caller, meta.size - current.size);
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
      this.ledger?.delete(meta.id);
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
        this.ledger?.delete(meta.id);
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

  /** Refuses a write that would pass a quota, saying which one and by how much. */

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
      add(this.pendingBytes, creator, -Math.max(0, delta));
    }
    this.ledger?.set(meta.id, { creator, size: meta.size, written: ++this.writes });
  }

  /**
   * Refuses a write that would pass a quota, saying which one and by how much; otherwise
   * reserves its bytes in the same turn as the check, so concurrent writes cannot all pass.
   */
  private async reserve(owner: string, bytes: number): Promise<void> {
    if (bytes <= 0) return;
    await this.loadLedger();
    if (this.refusal(owner, bytes)) await this.reconcile();
    const refusal = this.refusal(owner, bytes);
    if (refusal) throw new ResourceLimitError(refusal);
    add(this.pendingBytes, owner, bytes);
  }

  private refusal(owner: string, bytes: number): string | undefined {
    const perOwner = this.settings.maxBytesPerOwner ?? 64 * 1024 * 1024;
    const total = this.settings.maxTotalBytes ?? 1024 * 1024 * 1024;
    let mine = this.pendingBytes.get(owner) ?? 0;
    let all = 0;
    for (const used of this.pendingBytes.values()) all += used;
    for (const entry of this.ledger?.values() ?? []) {
      all += entry.size;
      if (entry.creator === owner) mine += entry.size;
    }
    if (mine + bytes > perOwner) {
      return `storing ${bytes} more bytes would pass your quota of ${perOwner} bytes (${mine} used); delete or let older results expire`;
    }
    if (all + bytes > total)
      return `storage is at its limit of ${total} bytes; try again after older results expire`;
    return undefined;
  }

  private loadLedger(): Promise<void> {
    if (this.ledger) return Promise.resolve();
    this.loadingLedger ??= this.reconcile().finally(() => {
      this.loadingLedger = undefined;
    });
    return this.loadingLedger;
  }

  /**
   * Makes the ledger match storage: adds what storage holds (and has not expired), drops
   * what it no longer holds, but keeps writes that finished after the listing began.
   */
  private async reconcile(deleteExpired = false): Promise<void> {
    const startedAfter = this.writes;
    const now = this.clock.now();
    const present = new Map<string, { creator: string; size: number; written: number }>();
    try {
      for await (const meta of this.storage.list()) {
        if (meta.expiresAt > now)
          present.set(meta.id, { creator: meta.creator, size: meta.size, written: 0 });
        else if (deleteExpired && (await this.storage.delete(meta.id))) this.onListChanged(meta.owner);
      }
    } catch (error) {
      this.logger.warn("could not list stored resources (quotas and expiry)", error);
      this.ledger ??= new Map();
      return;
    }
    for (const [id, entry] of this.ledger ?? []) if (entry.written > startedAfter) present.set(id, entry);
    this.ledger = present;
  }

  /** Deletes expired resources and reconciles the quota ledger in the same walk. */
  private async sweep(): Promise<void> {
    await this.reconcile(true);
  }
}

/** Adds `bytes` (possibly negative) to an owner's count, never going below zero. */
function add(counts: Map<string, number> | undefined, owner: string, bytes: number): void {
  if (!counts || bytes === 0) return;
  const next = Math.max(0, (counts.get(owner) ?? 0) + bytes);
  if (next === 0) counts.delete(owner);
  else counts.set(owner, next);
}
