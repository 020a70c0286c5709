import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { type FileHandle, open, realpath, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { fieldOf } from "../common/guards.js";
import { StorageError } from "./storage.js";

// File operations of FileStorage that keep it inside its directory: atomic writes,
// durable renames, and opening files without ever following a link.

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/** Temporary file in the same directory, flushed, then renamed over `target`. */
export async function writeAtomically(
  dir: string,
  id: string,
  target: string,
  bytes: Uint8Array,
): Promise<void> {
  const temporary = join(dir, `.${id}.${randomBytes(8).toString("hex")}.tmp`);
  const handle = await open(temporary, CREATE_FLAGS, 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await handle.close();
  try {
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}
/** Makes renames durable (best effort: not every platform can fsync a directory). */
export async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, constants.O_RDONLY);
    await handle.sync();
  } catch {
    // Windows and some file systems refuse; the renames are still atomic.
  } finally {
    await handle?.close().catch(() => {});
  }
}
/**
 * Opens a file of the directory for reading, or undefined when it does not exist.
 * Refuses a file whose real path is not itself (a symbolic link anywhere, even to a
 * file of the directory), opens without following links (O_NOFOLLOW, in case one was
 * planted since), and refuses anything but a regular file of the directory's disk with
 * no other hard link. A file unlinked after it was opened is still read whole: it is
 * the version it was when opened.
 */
export async function openFile(
  file: string,
  what: string,
  device: number,
): Promise<{ handle: FileHandle; size: number } | undefined> {
  let handle: FileHandle;
  try {
    if ((await realpath(file)) !== file) {
      throw new StorageError(`file storage: ${what} is a link to elsewhere; refused`);
    }
    handle = await open(file, READ_FLAGS);
  } catch (error) {
    if (error instanceof StorageError) throw error;
    if (codeOf(error) === "ENOENT") return undefined;
    if (codeOf(error) === "ELOOP")
      throw new StorageError(`file storage: ${what} is a symbolic link; refused`);
    throw new StorageError(`file storage: cannot open ${what} (${describeFileError(error)})`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile() || stats.nlink > 1 || stats.dev !== device) {
      throw new StorageError(`file storage: ${what} is not a regular file of the storage directory; refused`);
    }
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close().catch(() => {});
    if (error instanceof StorageError) throw error;
    throw new StorageError(`file storage: cannot open ${what} (${describeFileError(error)})`);
  }
}

/** The errno code of a file system error. */
export function codeOf(error: unknown): string {
  const code = fieldOf(error, "code");
  return typeof code === "string" ? code : "unknown error";
}

/** A reason safe to show a client: an errno code in words, never a path. */
export function describeFileError(error: unknown): string {
  if (error instanceof StorageError) return error.message;
  const code = codeOf(error);
  if (code === "ENOSPC") return "the disk is full";
  if (code === "EDQUOT") return "the disk quota is exhausted";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EMFILE" || code === "ENFILE") return "too many open files";
  return code;
}
