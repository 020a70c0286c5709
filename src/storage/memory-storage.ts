import { type ResourceStorage, StorageError, type StoragePart, type StoredResourceMeta } from "./storage.js";

/** Options of `MemoryStorage`. */
export interface MemoryStorageOptions {
  /** Total bytes of content and indexes it may hold (default 256 MiB); a write past it fails. */
  maxBytes?: number;
}

/** `MemoryStorage`'s cap when none is given: 256 MiB. */
const DEFAULT_MEMORY_STORAGE_BYTES = 256 * 1024 * 1024;

interface Stored {
  meta: StoredResourceMeta;
  content: Uint8Array;
  index: Uint8Array;
}

/**
 * The default `STORAGE` provider: resources in this process's memory, capped in bytes.
 * A write that would pass the cap fails with a clear error rather than evicting a
 * resource someone holds a link to. Expired resources are swept by the app's clock.
 *
 * @example
 * ```ts
 * providers: [{ provide: STORAGE, useValue: new MemoryStorage({ maxBytes: 64 * 1024 * 1024 }) }]
 * ```
 */
export class MemoryStorage implements ResourceStorage {
  private readonly resources = new Map<string, Stored>();
  private readonly maxBytes: number;
  private usedBytes = 0;
  /**
   * What it can hold at most (its `maxBytes`). The quota of all owners together
   * (`ephemeral.maxTotalBytes`) defaults to this, so with default settings the quota is
   * reached, and anonymous results evicted, before this storage refuses a write.
   */
  readonly capacityBytes: number;

  constructor(options: MemoryStorageOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MEMORY_STORAGE_BYTES;
    this.capacityBytes = this.maxBytes;
  }

  async put(meta: StoredResourceMeta, content: Uint8Array, index: Uint8Array): Promise<void> {
    const previous = this.resources.get(meta.id);
    const freed = previous ? previous.content.byteLength + previous.index.byteLength : 0;
    const needed = content.byteLength + index.byteLength;
    if (this.usedBytes - freed + needed > this.maxBytes) {
      throw new StorageError(
        `memory storage is full (${this.usedBytes} of ${this.maxBytes} bytes used, ${needed} more needed); raise MemoryStorage maxBytes or use FileStorage`,
      );
    }
    // Copies, so a caller reusing its buffers cannot change a stored version.
    this.resources.set(meta.id, { meta, content: Uint8Array.from(content), index: Uint8Array.from(index) });
    this.usedBytes += needed - freed;
  }

  async stat(id: string): Promise<StoredResourceMeta | undefined> {
    return this.resources.get(id)?.meta;
  }

  async read(
    id: string,
    version: number,
    part: StoragePart,
    start: number,
    end: number,
  ): Promise<Uint8Array> {
    const stored = this.resources.get(id);
    if (!stored || stored.meta.version !== version) {
      throw new StorageError(
        `version ${version} of this resource is gone; it was updated or deleted; read it again`,
      );
    }
    // A copy, as FileStorage reads one: a caller that changes what it read never changes what is stored.
    return (part === "content" ? stored.content : stored.index).slice(start, end);
  }

  async delete(id: string): Promise<boolean> {
    const stored = this.resources.get(id);
    if (!stored) return false;
    this.usedBytes -= stored.content.byteLength + stored.index.byteLength;
    return this.resources.delete(id);
  }

  async *list(): AsyncIterable<StoredResourceMeta> {
    for (const { meta } of [...this.resources.values()]) yield meta;
  }
}
