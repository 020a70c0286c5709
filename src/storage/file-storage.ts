import { mkdirSync, realpathSync, statSync } from "node:fs";
import { lstat, opendir, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { codeOf, describeFileError as describe, openFile, syncDir, writeAtomically } from "./safe-files.js";
import {
  type ResourceStorage,
  StorageError,
  type StoragePart,
  type StoredResourceMeta,
  VersionConflictError,
} from "./storage.js";
import { checkedId, checkedVersion, checkRange } from "./storage-checks.js";
import { parseStoredMeta } from "./stored-meta.js";

/** Options of `FileStorage`. */
export interface FileStorageOptions {
  /** Directory of the resources (default `<os tmpdir>/frugal-mcp-resources`); created (mode 0700) if missing. */
  dir?: string;
}

const META_FILE = /^([A-Za-z0-9_-]{22})\.meta\.json$/;
const BLOB_FILE = /^([A-Za-z0-9_-]{22})\.([0-9]{1,16})\.(data|index)$/;
const TEMP_FILE = /^\.[A-Za-z0-9_-]{22}\.[0-9a-f]{16}\.tmp$/;
/** Largest metadata file read (a planted huge file is refused, not loaded). */
const MAX_META_BYTES = 1024 * 1024;
/** Left-over temporary files and unreferenced blobs older than this are removed while listing. */
const ORPHAN_GRACE_MS = 10 * 60 * 1000;

/**
 * A `STORAGE` provider on the local disk: resources survive a restart of the process and
 * can be far larger than memory. Each version is stored as two immutable files,
 * `<id>.<version>.data` and `<id>.<version>.index`, and the resource's metadata as
 * `<id>.meta.json`, written last: every file is written to a temporary name in the same
 * directory, flushed to disk and renamed into place, so a reader sees the old version or
 * the new one, never half of one. The previous version's files are removed once the new
 * metadata is in place. Reads open the file and read only the requested bytes.
 *
 * Paths are built only from server-generated ids (22 base64url characters, checked before
 * the disk is touched) and integer versions; files are never opened through a symbolic
 * link, and a file that resolves outside the directory, is not a regular file or has
 * other hard links is refused. Expired resources are deleted by the app's sweeper.
 *
 * Point several processes at the same directory only if they share one disk (not NFS).
 *
 * @example
 * ```ts
 * providers: [{ provide: STORAGE, useValue: new FileStorage({ dir: "/var/lib/my-mcp/resources" }) }]
 * ```
 */
export class FileStorage implements ResourceStorage {
  /** The directory's real path, resolved once: every file must be directly inside it. */
  readonly dir: string;
  private readonly device: number;
  /** One put or delete per id at a time in this process (the metadata decides which blobs are live). */
  private readonly locks = new Map<string, Promise<unknown>>();
  private lastCollection = 0;

  constructor(options: FileStorageOptions = {}) {
    const wanted = options.dir ?? join(tmpdir(), "frugal-mcp-resources");
    try {
      mkdirSync(wanted, { recursive: true, mode: 0o700 });
      this.dir = realpathSync(wanted);
      const stats = statSync(this.dir);
      if (!stats.isDirectory()) throw new StorageError(`file storage: ${wanted} is not a directory`);
      const uid = process.getuid?.();
      if (uid !== undefined && stats.uid !== uid) {
        throw new StorageError(
          `file storage: ${wanted} belongs to another user (uid ${stats.uid}); give FileStorage a directory of your own`,
        );
      }
      this.device = stats.dev;
    } catch (error) {
      if (error instanceof StorageError) throw error;
      throw new StorageError(`file storage: cannot use ${wanted} (${codeOf(error)})`);
    }
  }

  async put(
    meta: StoredResourceMeta,
    content: Uint8Array,
    index: Uint8Array,
    expected?: number,
  ): Promise<void> {
    const id = checkedId(meta.id);
    const version = checkedVersion(meta.version);
    await this.exclusive(id, async () => {
      const previous = await this.readMeta(id).catch(() => undefined);
      // Checked under this process's lock: processes sharing the directory are not ordered.
      if (expected !== undefined && (previous?.version ?? 0) !== expected) {
        throw new VersionConflictError(
          `resource ${id} changed since version ${expected} was read; read it again`,
        );
      }
      try {
        await writeAtomically(this.dir, id, this.blobPath(id, version, "content"), content);
        await writeAtomically(this.dir, id, this.blobPath(id, version, "index"), index);
        await syncDir(this.dir);
        await writeAtomically(this.dir, id, this.metaPath(id), Buffer.from(JSON.stringify(meta)));
        await syncDir(this.dir);
      } catch (error) {
        // The metadata still names the previous version: what was written of this one goes.
        if (previous?.version !== version) await this.removeBlobs(id, version).catch(() => {});
        throw new StorageError(`file storage: writing resource ${id} failed (${describe(error)})`);
      }
      // The new version is in place: failing to remove the old one must not fail the write
      // (a later listing collects what is left).
      if (previous && previous.version !== version)
        await this.removeBlobs(id, previous.version).catch(() => {});
    });
  }

  async stat(id: string): Promise<StoredResourceMeta | undefined> {
    return this.readMeta(checkedId(id));
  }

  async read(
    id: string,
    version: number,
    part: StoragePart,
    start: number,
    end: number,
  ): Promise<Uint8Array> {
    const file = this.blobPath(checkedId(id), checkedVersion(version), part);
    checkRange(start, end);
    const opened = await openFile(file, `version ${version} of resource ${id}`, this.device);
    if (!opened) {
      throw new StorageError(
        `version ${version} of this resource is gone; it was updated or deleted; read it again`,
      );
    }
    const { handle, size } = opened;
    try {
      const length = Math.min(end, size) - start;
      if (length <= 0) return new Uint8Array(0);
      const bytes = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(bytes, filled, length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return bytes.subarray(0, filled);
    } catch (error) {
      throw new StorageError(`file storage: reading resource ${id} failed (${describe(error)})`);
    } finally {
      await handle.close().catch(() => {});
    }
  }

  async delete(id: string): Promise<boolean> {
    const checked = checkedId(id);
    return this.exclusive(checked, async () => {
      let version: number | undefined;
      try {
        version = (await this.readMeta(checked))?.version;
      } catch {
        // Unreadable metadata (malformed, or planted): it is removed below all the same.
      }
      const existed = await this.unlinkQuietly(this.metaPath(checked));
      if (version !== undefined) await this.removeBlobs(checked, version);
      else if (existed) await this.removeAllBlobs(checked);
      return existed;
    });
  }

  async *list(): AsyncIterable<StoredResourceMeta> {
    let names: string[];
    try {
      names = await this.names();
    } catch (error) {
      throw new StorageError(`file storage: listing resources failed (${describe(error)})`);
    }
    const live = new Map<string, number>();
    for (const name of names) {
      const id = META_FILE.exec(name)?.[1];
      if (id === undefined) continue;
      const meta = await this.readMeta(id).catch(() => undefined);
      if (!meta) continue;
      live.set(id, meta.version);
      yield meta;
    }
    if (Date.now() - this.lastCollection >= ORPHAN_GRACE_MS) {
      this.lastCollection = Date.now();
      await this.collectOrphans(names, live);
    }
  }

  private metaPath(id: string): string {
    return join(this.dir, `${id}.meta.json`);
  }

  private blobPath(id: string, version: number, part: StoragePart): string {
    return join(this.dir, `${id}.${version}.${part === "content" ? "data" : "index"}`);
  }

  /** Runs `work` after every earlier put or delete of `id` in this process has finished. */
  private async exclusive<T>(id: string, work: () => Promise<T>): Promise<T> {
    const before = this.locks.get(id) ?? Promise.resolve();
    const mine = before.then(work, work);
    const settled = mine.catch(() => {});
    this.locks.set(id, settled);
    try {
      return await mine;
    } finally {
      if (this.locks.get(id) === settled) this.locks.delete(id);
    }
  }

  /** The metadata of `id` (an id already checked), or undefined when there is none. */
  private async readMeta(id: string): Promise<StoredResourceMeta | undefined> {
    const what = `the metadata of resource ${id}`;
    const opened = await openFile(this.metaPath(id), what, this.device);
    if (!opened) return undefined;
    const { handle, size } = opened;
    let text: string;
    try {
      if (size > MAX_META_BYTES) throw new StorageError(`file storage: ${what} is too large; refused`);
      text = (await handle.readFile()).toString("utf8");
    } catch (error) {
      if (error instanceof StorageError) throw error;
      throw new StorageError(`file storage: reading ${what} failed (${describe(error)})`);
    } finally {
      await handle.close().catch(() => {});
    }
    const meta = parseStoredMeta(text, id);
    if (!meta) throw new StorageError(`file storage: ${what} is malformed`);
    return meta;
  }

  private async removeBlobs(id: string, version: number): Promise<void> {
    await this.unlinkQuietly(this.blobPath(id, version, "content"));
    await this.unlinkQuietly(this.blobPath(id, version, "index"));
  }

  /** Every blob of `id`, whatever its version (when the metadata could not say which). */
  private async removeAllBlobs(id: string): Promise<void> {
    const names = await this.names().catch((): string[] => []);
    for (const name of names) {
      if (BLOB_FILE.exec(name)?.[1] === id) await this.unlinkQuietly(join(this.dir, name));
    }
  }

  /** Removes a file of the directory (never what a link points to); true when it existed. */
  private async unlinkQuietly(file: string): Promise<boolean> {
    try {
      await unlink(file);
      return true;
    } catch (error) {
      if (codeOf(error) === "ENOENT") return false;
      throw new StorageError(`file storage: deleting a file failed (${describe(error)})`);
    }
  }

  private async names(): Promise<string[]> {
    const names: string[] = [];
    for await (const entry of await opendir(this.dir)) names.push(entry.name);
    return names;
  }

  /**
   * Removes what a crash can leave behind: temporary files, and blobs of versions no
   * metadata refers to. Only files older than the grace period, so a write in progress
   * (whose blobs precede its metadata) is never touched.
   */
  private async collectOrphans(names: readonly string[], live: ReadonlyMap<string, number>): Promise<void> {
    const cutoff = Date.now() - ORPHAN_GRACE_MS;
    for (const name of names) {
      const blob = BLOB_FILE.exec(name);
      const orphan = blob ? live.get(blob[1] as string) !== Number(blob[2]) : TEMP_FILE.test(name);
      if (!orphan) continue;
      const file = join(this.dir, name);
      try {
        const stats = await lstat(file);
        if (stats.mtimeMs < cutoff) await unlink(file);
      } catch {
        // Gone already, or not ours to remove: the next collection tries again.
      }
    }
  }
}

/** A reason safe to show a client: an errno code and what it means, never a path. */
