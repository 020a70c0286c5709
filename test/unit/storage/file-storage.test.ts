import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileStorage } from "../../../src/storage/file-storage.js";
import { StorageError, type StoredResourceMeta, VersionConflictError } from "../../../src/storage/storage.js";
import { metaFor } from "../../support/storage-contract.js";

const root = mkdtempSync(join(tmpdir(), "frugal-file-storage-unit-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const fresh = () => new FileStorage({ dir: join(root, `s${dirs++}`) });
const files = (storage: FileStorage) => readdirSync(storage.dir).sort();
const listAll = async (storage: FileStorage) => {
  const all: StoredResourceMeta[] = [];
  for await (const meta of storage.list()) all.push(meta);
  return all;
};

describe("FileStorage", () => {
  it("keeps one data file, one index file and the metadata per resource, under the id and version", async () => {
    const storage = fresh();
    const first = metaFor(["a", "b"]);
    await storage.put(first.meta, first.content, first.index);
    const id = first.meta.id;
    expect(files(storage)).toEqual([`${id}.1.data`, `${id}.1.index`, `${id}.meta.json`]);
    const second = metaFor(["c"], { id, version: 2 });
    await storage.put(second.meta, second.content, second.index);
    expect(files(storage)).toEqual([`${id}.2.data`, `${id}.2.index`, `${id}.meta.json`]);
    expect(await storage.delete(id)).toBe(true);
    expect(files(storage)).toEqual([]);
  });

  it("orders concurrent writes of one id: of two writers expecting the same version, one wins", async () => {
    const storage = fresh();
    const first = metaFor("v1");
    await storage.put(first.meta, first.content, first.index, 0);
    const id = first.meta.id;
    const writes = ["mine", "theirs"].map((text) => {
      const next = metaFor(text, { id, version: 2 });
      return storage.put(next.meta, next.content, next.index, 1);
    });
    const results = await Promise.allSettled(writes);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(VersionConflictError);
    expect(refused.reason.message).toMatch(/changed since version 1 was read; read it again/);
    expect((await storage.stat(id))?.version).toBe(2);
  });

  it("deletes a resource whose metadata is malformed, with every blob of it", async () => {
    const storage = fresh();
    const { meta, content, index } = metaFor("soon unreadable");
    await storage.put(meta, content, index);
    writeFileSync(join(storage.dir, `${meta.id}.meta.json`), "{broken");
    await expect(storage.stat(meta.id)).rejects.toThrow(
      new StorageError(`file storage: the metadata of resource ${meta.id} is malformed`),
    );
    expect(await listAll(storage)).toEqual([]);
    expect(await storage.delete(meta.id)).toBe(true);
    expect(files(storage)).toEqual([]);
  });

  it("refuses metadata files too large to be its own", async () => {
    const storage = fresh();
    const { meta } = metaFor("x");
    writeFileSync(join(storage.dir, `${meta.id}.meta.json`), Buffer.alloc(1024 * 1024 + 1, 32));
    await expect(storage.stat(meta.id)).rejects.toThrow(/too large; refused/);
  });

  it("collects old orphans while listing, and keeps recent ones and live blobs", async () => {
    const storage = fresh();
    const live = metaFor("live");
    await storage.put(live.meta, live.content, live.index);
    const stale = metaFor("stale");
    const old = new Date(Date.now() - 60 * 60 * 1000);
    const orphans = [
      `${stale.meta.id}.3.data`,
      `.${stale.meta.id}.0123456789abcdef.tmp`,
      `${live.meta.id}.7.index`,
    ];
    for (const name of orphans) {
      writeFileSync(join(storage.dir, name), "x");
      utimesSync(join(storage.dir, name), old, old);
    }
    const recent = `${stale.meta.id}.4.data`;
    writeFileSync(join(storage.dir, recent), "in progress");
    expect((await listAll(storage)).map((m) => m.id)).toEqual([live.meta.id]);
    expect(files(storage)).toEqual(
      [`${live.meta.id}.1.data`, `${live.meta.id}.1.index`, `${live.meta.id}.meta.json`, recent].sort(),
    );
  });

  it("reads a range from the middle of a version without the rest", async () => {
    const storage = fresh();
    const bytes = new Uint8Array(100_000).map((_, i) => i % 251);
    const { meta, content, index } = metaFor(bytes);
    await storage.put(meta, content, index);
    expect([...(await storage.read(meta.id, 1, "content", 50_000, 50_004))]).toEqual([
      ...bytes.subarray(50_000, 50_004),
    ]);
    await expect(storage.read(meta.id, 1, "content", -1, 4)).rejects.toThrow(/not a byte range/);
    await expect(storage.read(meta.id, 0, "content", 0, 4)).rejects.toThrow(/not a resource version/);
  });
});
