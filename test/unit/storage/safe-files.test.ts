import {
  linkSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newResourceId } from "../../../src/storage/resource-id.js";
import {
  codeOf,
  describeFileError,
  openFile,
  syncDir,
  writeAtomically,
} from "../../../src/storage/safe-files.js";
import { StorageError } from "../../../src/storage/storage.js";

const dir = mkdtempSync(join(tmpdir(), "frugal-safe-files-"));
const device = statSync(dir).dev;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const errno = (code: string) => Object.assign(new Error(`${code}: /secret/path`), { code });

describe("writeAtomically", () => {
  it("writes the bytes under the target name, private, leaving no temporary file", async () => {
    const id = newResourceId();
    const target = join(dir, `${id}.1.data`);
    await writeAtomically(dir, id, target, Buffer.from("first"));
    await writeAtomically(dir, id, target, Buffer.from("second"));
    expect(readFileSync(target, "utf8")).toBe("second");
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("removes its temporary file when the rename fails", async () => {
    const id = newResourceId();
    const before = readdirSync(dir).length;
    await expect(writeAtomically(dir, id, join(dir, "missing-dir", "x"), Buffer.from("x"))).rejects.toThrow();
    expect(readdirSync(dir)).toHaveLength(before);
  });
});

describe("openFile", () => {
  it("opens a regular file with its size, and gives undefined for a missing one", async () => {
    const file = join(dir, "plain");
    writeFileSync(file, "hello");
    const opened = await openFile(file, "plain", device);
    expect(opened?.size).toBe(5);
    await opened?.handle.close();
    expect(await openFile(join(dir, "nothing"), "nothing", device)).toBeUndefined();
  });

  it("refuses a symbolic link, even to a file of the directory", async () => {
    writeFileSync(join(dir, "real"), "x");
    symlinkSync(join(dir, "real"), join(dir, "link"));
    await expect(openFile(join(dir, "link"), "the link", device)).rejects.toThrow(
      new StorageError("file storage: the link is a link to elsewhere; refused"),
    );
  });

  it("refuses a file with another hard link, a directory, and a file of another device", async () => {
    writeFileSync(join(dir, "shared"), "x");
    linkSync(join(dir, "shared"), join(dir, "shared-too"));
    await expect(openFile(join(dir, "shared"), "shared", device)).rejects.toThrow(/not a regular file/);
    await expect(openFile(dir, "the directory", device)).rejects.toThrow(/not a regular file/);
    writeFileSync(join(dir, "elsewhere"), "x");
    await expect(openFile(join(dir, "elsewhere"), "elsewhere", device + 1)).rejects.toThrow(StorageError);
  });
});

describe("file errors", () => {
  it("describe the errno in words and never show the path", () => {
    expect(describeFileError(errno("ENOSPC"))).toBe("the disk is full");
    expect(describeFileError(errno("EDQUOT"))).toBe("the disk quota is exhausted");
    expect(describeFileError(errno("EACCES"))).toBe("permission denied");
    expect(describeFileError(errno("EMFILE"))).toBe("too many open files");
    expect(describeFileError(errno("EIO"))).toBe("EIO");
    expect(describeFileError(new StorageError("kept as is"))).toBe("kept as is");
    expect(codeOf(new Error("no code"))).toBe("unknown error");
    expect(codeOf(null)).toBe("unknown error");
  });

  it("syncDir never fails, even on a missing directory", async () => {
    await expect(syncDir(join(dir, "missing"))).resolves.toBeUndefined();
  });
});
