// Over 300 lines on purpose: one class, the resource manager behind `ctx.resources` and the resource tools
// (create, read, slices, update, delete, listing, quotas, expiry), whose methods share its ownership and quota rules.
import type { Clock } from "../clock/clock.js";
import type { Logger } from "../logging/logger.js";
import { isAnonymousOwner, UNLISTED_OWNER } from "../pipeline/owners.js";
import type { CreateResourceOptions as HandlerCreateOptions } from "../pipeline/resource-handle.js";
import { derivedResourceId, newResourceId } from "../storage/resource-id.js";
import {
  type ResourceStorage,
  StorageError,
  type StoredResourceMeta,
  VersionConflictError,
} from "../storage/storage.js";
import { encodeContentYielding } from "./encode-yielding.js";
import { EPHEMERAL_DEFAULTS, type EphemeralSettings } from "./ephemeral-settings.js";
import { chosenUriProblem, EPHEMERAL_SCHEME, ephemeralUri, idOfEphemeralUri } from "./ephemeral-uri.js";
import type { QuotaBook, SettleWrite } from "./quota-book.js";
import { QuotaLedger } from "./quota-ledger.js";
import { ResourceLimitError, ResourceNotFoundError } from "./resource-errors.js";
import { SharedQuota } from "./shared-quota.js";

/**
 * Tries of a write that keeps meeting a newer version (another call or instance wrote the
 * same resource in between): each try reads the resource again and builds on it.
 */
const WRITE_ATTEMPTS = 20;

/** Content encoded for storage. */
type Encoded = Awaited<ReturnType<typeof encodeContentYielding>>;

/** Options of one resource being created: the handler's (`ctx.resources.create`), plus the tool that made it. */
export interface CreateResourceOptions extends HandlerCreateOptions {
  /** The tool that made it (the URI's host part). */
  tool?: string;
}

/**
 * Creates, reads, updates and deletes ephemeral resources for owners, over any
 * `ResourceStorage`. Enforces visibility (another owner gets "not found", never the
 * data), expiry by the app's clock, and per-owner and global byte quotas (when the global
 * one is reached, the oldest resources of the anonymous owners holding most make room:
 * see `QuotaLedger`).
 *
 * URIs and storage ids: a resource created without a URI gets `ephemeral://<tool>/<id>`
 * with a random id. A resource at a URI the handler chose is stored under a digest of
 * its owner and that URI (`derivedResourceId`; global resources under a digest of the
 * URI alone), so no client text reaches a path or a key, two owners' `results://x` are
 * two resources, and finding one is two `stat`s (the caller's own, then the global one),
 * with no index to keep. The stored metadata names the URI and the owner, and both are
 * checked on every lookup.
 *
 * Several instances may share one storage (`RedisStorage`): writes are conditional on the
 * version they read (a write that meets a newer one reads again and retries, so two
 * instances updating one resource never lose an update), quotas are counted by the
 * storage for all instances, and listing asks the storage for the caller's resources only.
 */
export class EphemeralResources {
  /** Bytes stored and promised per creator, checked before every write. */
  private readonly quota: QuotaBook;
  private readonly updates = new Map<string, Promise<unknown>>();
  private sweeper: NodeJS.Timeout | undefined;
  /** Called when an owner's list of resources changed (null: a global resource). */
  onListChanged: (owner: string | null) => void = () => {};
  /**
   * Whether a declared static resource or template serves `uri`; such a URI cannot be
   * chosen for an ephemeral resource. The composition root sets it once the registry is built.
   */
  isDeclaredUri: (uri: string) => boolean = () => false;

  constructor(
    readonly storage: ResourceStorage,
    private readonly clock: Clock,
    private readonly logger: Logger,
    readonly settings: EphemeralSettings = {},
  ) {
    // Storage that expires by itself (Redis TTLs) counts from the clock expiresAt is on.
    storage.useClock?.(clock);
    const onDeleted = (owner: string | null) => this.onListChanged(owner);
    this.quota = storage.usage
      ? new SharedQuota(storage.usage, storage, clock, logger, settings, onDeleted)
      : new QuotaLedger(storage, clock, logger, settings, onDeleted);
  }

  /** Starts sweeping expired resources on a timer that never keeps the process alive. */
  startSweeping(): void {
    this.sweeper = setInterval(() => void this.sweep(), this.settings.sweepIntervalMs ?? 60_000);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    clearInterval(this.sweeper);
  }

  /**
   * Stores a new resource of `creator`. With `options.uri`, at that URI: creating again
   * at a URI the creator already holds replaces it (its version goes up by one); a global
   * URI another owner holds is refused; another owner's resource at the same URI is
   * neither seen nor touched (it lives under another id).
   */
  async create(value: unknown, options: CreateResourceOptions, creator: string): Promise<StoredResourceMeta> {
    if (options.uri === undefined) {
      const id = newResourceId();
      return this.createAt(id, ephemeralUri(options.tool ?? "resource", id), value, options, creator);
    }
    const uri = this.checkedChosenUri(options.uri);
    if (options.scope !== "global" && isAnonymousOwner(creator)) {
      // Its URI would be its only key, and a chosen URI can be guessed.
      throw new ResourceLimitError(
        `Cannot create a resource at ${JSON.stringify(uri)}: an anonymous caller of a sessionless (2026-07-28) request cannot choose a URI, since anyone who knows it could read it. Fix: leave \`uri\` out (a random ephemeral:// URI is made), use scope: "global" for data meant for everyone, or authenticate callers.`,
      );
    }
    const owner = options.scope === "global" ? null : creator;
    // In turn with updates of the same URI (they serialize on the URI too).
    return this.serialized(uri, () =>
      this.createAt(derivedResourceId(owner, uri), uri, value, options, creator),
    );
  }

  private async createAt(
    id: string,
    uri: string,
    value: unknown,
    options: CreateResourceOptions,
    creator: string,
  ): Promise<StoredResourceMeta> {
    const owner = options.scope === "global" ? null : isAnonymousOwner(creator) ? UNLISTED_OWNER : creator;
    // A result of tens of megabytes is encoded in steps, letting other sessions' calls run.
    const encoded = await encodeContentYielding(value, options.mimeType);
    return this.retryingConflicts(async () => {
      const previous =
        options.uri === undefined ? undefined : await this.replaceable(id, uri, owner, creator);
      const now = this.clock.now();
      const meta: StoredResourceMeta = {
        id,
        uri,
        owner,
        creator,
        name: options.name ?? options.tool ?? "result",
        ...(options.description === undefined ? {} : { description: options.description }),
        mimeType: encoded.mimeType,
        kind: encoded.kind,
        size: encoded.content.length,
        total: encoded.total,
        // Never the version of what it replaces (even an expired one): a reader mid-walk notices.
        version: (previous?.meta.version ?? 0) + 1,
        createdAt: now,
        expiresAt: now + (options.ttl ?? this.settings.defaultTtlMs ?? EPHEMERAL_DEFAULTS.defaultTtlMs),
      };
      // A random id is new: nothing to expect. A chosen URI's id replaces what was read.
      const expected = options.uri === undefined ? undefined : (previous?.meta.version ?? 0);
      await this.store(meta, encoded, previous?.live ? previous.meta.size : 0, expected);
      this.onListChanged(meta.owner);
      return meta;
    });
  }

  /** Runs a read-then-write again while the write meets a version newer than the one it read. */
  private async retryingConflicts<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof VersionConflictError)) throw error;
        if (tries >= WRITE_ATTEMPTS) {
          throw new StorageError(
            `could not store the result (the resource changed ${tries} times while it was written, by other calls or instances); nothing was saved; try again`,
          );
        }
      }
    }
  }

  /** The URI a handler chose, or a refusal that says what is wrong with it. */
  private checkedChosenUri(uri: unknown): string {
    const problem = chosenUriProblem(uri);
    const shown = typeof uri === "string" ? JSON.stringify(uri.slice(0, 200)) : String(uri);
    if (problem !== undefined)
      throw new ResourceLimitError(`Cannot create a resource at ${shown}: the URI ${problem}.`);
    const chosen = uri as string;
    if (this.isDeclaredUri(chosen)) {
      throw new ResourceLimitError(
        `Cannot create a resource at ${shown}: a declared resource or resource template serves that URI; choose one that no @Resource matches.`,
      );
    }
    return chosen;
  }

  /**
   * What is stored at the id of a chosen URI, if a new version may replace it: nothing,
   * an expired resource, or the creator's own. A live global resource of another creator
   * is refused (global resources are seen by everyone, so saying so reveals nothing).
   */
  private async replaceable(
    id: string,
    uri: string,
    owner: string | null,
    creator: string,
  ): Promise<{ meta: StoredResourceMeta; live: boolean } | undefined> {
    let current: StoredResourceMeta | undefined;
    try {
      current = await this.storage.stat(id);
    } catch (error) {
      this.logger.error(`looking up ${uri} before storing it failed`, error);
      const reason = error instanceof StorageError ? error.message : "the storage backend failed";
      throw new StorageError(`could not store the result (${reason}); nothing was saved`);
    }
    if (!current) return undefined;
    if (current.expiresAt <= this.clock.now()) return { meta: current, live: false };
    if (current.uri !== uri || current.owner !== owner || current.creator !== creator) {
      throw new ResourceLimitError(
        `Cannot create a resource at ${JSON.stringify(uri)}: another owner's global resource is there until ${new Date(current.expiresAt).toISOString()}; choose another URI.`,
      );
    }
    return { meta: current, live: true };
  }

  /** Replaces the content of a resource its caller created; the version goes up by one. */
  async update(uri: string, value: unknown, caller: string): Promise<StoredResourceMeta> {
    // Two racing updates would both write version N + 1; in turn, each builds on the last.
    return this.serialized(idOfEphemeralUri(uri) ?? uri, () => this.updateNow(uri, value, caller));
  }

  private async updateNow(uri: string, value: unknown, caller: string): Promise<StoredResourceMeta> {
    return this.retryingConflicts(async () => {
      const current = await this.ownedBy(uri, caller);
      const encoded = await encodeContentYielding(value, current.mimeType);
      const meta: StoredResourceMeta = {
        ...current,
        kind: encoded.kind,
        size: encoded.content.length,
        total: encoded.total,
        version: current.version + 1,
      };
      await this.store(meta, encoded, current.size, current.version);
      return meta;
    });
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

  /**
   * Metadata of a resource `caller` may see, or undefined (missing, expired or someone
   * else's), at a server-generated `ephemeral://` URI or at a URI a handler chose: the
   * caller's own resource there first, else a global one.
   */
  async stat(uri: string, caller: string): Promise<StoredResourceMeta | undefined> {
    const id = idOfEphemeralUri(uri);
    if (id) {
      const meta = this.live(await this.storage.stat(id), uri);
      return meta && reachable(meta.owner, caller) ? meta : undefined;
    }
    // Text no handler could have chosen never reaches storage, not even as a digest.
    if (chosenUriProblem(uri) !== undefined) return undefined;
    const own = this.live(await this.storage.stat(derivedResourceId(caller, uri)), uri);
    if (own?.owner === caller) return own;
    const global = this.live(await this.storage.stat(derivedResourceId(null, uri)), uri);
    return global?.owner === null ? global : undefined;
  }

  /**
   * When the resource at `uri` that `caller` could see is still in storage but has expired,
   * its expiry time: the resource tools then say "expired" rather than "unknown". (Storage
   * that already removed it, a Redis TTL or a sweep, makes it unknown.)
   */
  async expiredAt(uri: string, caller: string): Promise<number | undefined> {
    const id = idOfEphemeralUri(uri);
    const ids = id
      ? [id]
      : chosenUriProblem(uri) === undefined
        ? [derivedResourceId(caller, uri), derivedResourceId(null, uri)]
        : [];
    for (const candidate of ids) {
      const meta = await this.storage.stat(candidate).catch(() => undefined);
      const visible = meta !== undefined && meta.uri === uri && reachable(meta.owner, caller);
      if (visible && meta.expiresAt <= this.clock.now()) return meta.expiresAt;
    }
    return undefined;
  }

  /**
   * Resources `caller` may see, newest first; a global one is left out where the caller
   * has its own at that URI. Costs the caller's own resources and the global ones, never
   * every owner's: the storage lists by owner, or the quota ledger indexes them.
   */
  async list(caller: string): Promise<StoredResourceMeta[]> {
    const now = this.clock.now();
    const live = (metas: StoredResourceMeta[], owner: string | null) =>
      metas.filter((meta) => meta.expiresAt > now && meta.owner === owner);
    const own = live(await this.ownedList(caller), caller);
    const global = live(await this.ownedList(null), null);
    const ownUris = new Set(own.map((meta) => meta.uri));
    const visible = [...own, ...global.filter((meta) => !ownUris.has(meta.uri))];
    return visible.sort((a, b) => b.createdAt - a.createdAt);
  }

  /** The stored resources of one owner (null: global ones), expired ones included. */
  private async ownedList(owner: string | null): Promise<StoredResourceMeta[]> {
    const metas: StoredResourceMeta[] = [];
    if (this.storage.listByOwner) {
      for await (const meta of this.storage.listByOwner(owner)) metas.push(meta);
      return metas;
    }
    const ids = (await this.quota.owned(owner)) ?? [];
    const found = await Promise.all(ids.map((id) => this.storage.stat(id)));
    for (const meta of found) if (meta) metas.push(meta);
    return metas;
  }

  /** Whole content of a visible resource (for `resources/read`). */
  async readAll(meta: StoredResourceMeta): Promise<Buffer> {
    return Buffer.from(await this.storage.read(meta.id, meta.version, "content", 0, meta.size));
  }

  /** Deletes everything an owner created (when its session ends, if configured). */
  async deleteOwnedBy(owner: string): Promise<void> {
    const candidates = [...(await this.ownedList(owner)), ...(await this.ownedList(null))];
    for (const meta of candidates) {
      if (meta.creator === owner && (await this.storage.delete(meta.id).catch(() => false))) {
        this.quota.forget(meta.id);
      }
    }
  }

  /**
   * True for URIs of the `ephemeral://` scheme, which only this manager serves. A URI a
   * handler chose may be in any other scheme: `resources/read` asks `stat` for a URI no
   * declared resource or template serves (text no handler could choose never reaches storage).
   */
  static handles(uri: string): boolean {
    return uri.startsWith(EPHEMERAL_SCHEME);
  }

  /** `meta` if it is stored for `uri` and has not expired. */
  private live(meta: StoredResourceMeta | undefined, uri: string): StoredResourceMeta | undefined {
    return meta && meta.uri === uri && meta.expiresAt > this.clock.now() ? meta : undefined;
  }

  private async ownedBy(uri: string, caller: string): Promise<StoredResourceMeta> {
    const meta = await this.stat(uri, caller);
    if (!meta || meta.creator !== caller)
      throw new ResourceNotFoundError(uri, "no resource you created exists there; it may have expired");
    return meta;
  }

  /**
   * Writes a version (only over version `expected`, when given) within the quotas; settles
   * what the quota reserved, whether the write succeeds or not. A version conflict is
   * passed on as it is, for the caller to read again.
   */
  private async store(
    meta: StoredResourceMeta,
    encoded: Encoded,
    replacedSize: number,
    expected: number | undefined,
  ): Promise<void> {
    let settle: SettleWrite;
    try {
      settle = await this.quota.reserve(meta, replacedSize);
    } catch (error) {
      // A quota refusal is the caller's to read; a shared ledger that failed is a storage failure.
      throw error instanceof StorageError ? this.storeFailed(meta, error) : error;
    }
    let written = false;
    try {
      await letOthersRun(meta.size);
      await this.storage.put(meta, encoded.content, encoded.index, expected);
      written = true;
    } catch (error) {
      if (error instanceof VersionConflictError) throw error;
      throw this.storeFailed(meta, error);
    } finally {
      await settle(written);
    }
  }

  /** Logs a failed write and says so to the caller, with nothing saved. */
  private storeFailed(meta: StoredResourceMeta, error: unknown): StorageError {
    this.logger.error(`storing ${meta.uri} failed`, error);
    const reason = error instanceof StorageError ? error.message : "the storage backend failed";
    return new StorageError(`could not store the result (${reason}); nothing was saved`);
  }

  /** Deletes expired resources and reconciles the quota ledger in the same walk. */
  private async sweep(): Promise<void> {
    await this.quota.sweep();
  }
}

/**
 * Before storing a large result (a storage may copy it in one go), lets other sessions'
 * calls run, so encoding it and storing it are never one long stretch of work.
 */
async function letOthersRun(size: number): Promise<void> {
  if (size >= 1024 * 1024) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Whether `caller` may read a resource stored for `owner` at its server-made URI: its own, a
 * global one, or one an anonymous sessionless caller stored (its unguessable URI is its key).
 */
function reachable(owner: string | null, caller: string): boolean {
  return owner === null || owner === caller || owner === UNLISTED_OWNER;
}
