import { randomBytes } from "node:crypto";
import { type ResourceStorage, StorageError, type StoredResourceMeta } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeContent } from "../../src/ephemeral/content-index.js";
import { newResourceId } from "../../src/storage/resource-id.js";
import { VersionConflictError } from "../../src/storage/storage.js";

/** Options of `describeStorageContract`. */
export interface StorageContractOptions {
  /** Skip the whole suite (e.g. Redis is down outside CI). */
  skip?: boolean;
  /** The provider refuses a `put` whose id it could not have generated (every durable one must). */
  validatesIds?: boolean;
  /** `put` with an expected version refuses a stale one (every storage several processes may share must). */
  checksVersions?: boolean;
  /** A second instance on the same backing store, to check that resources survive a restart. */
  reopen?: () => ResourceStorage | Promise<ResourceStorage>;
}

/** Ids that no server generates: each must be refused (StorageError) or find nothing. */
export const MALFORMED_IDS = [
  "",
  "short",
  "../x",
  "..%2F..%2Fetc",
  "a\\b",
  "/etc/passwd",
  "x\u0000y",
  "AAAAAAAAAAAAAAAAAAAAA.",
  "..AAAAAAAAAAAAAAAAAAAA",
  "AAAAAAAAAAAAAAAAAAAAAAA",
  "AAAAAAAAAAAAAAAAAAAAAA\n",
  "AAAAAAAAAA/AAAAAAAAAAA",
  "AAAAAAAAAA*AAAAAAAAAAA",
];

/** Metadata of a resource holding `value`, as `EphemeralResources.create` would build it. */
export function metaFor(
  value: unknown,
  overrides: Partial<StoredResourceMeta> = {},
): { meta: StoredResourceMeta; content: Buffer; index: Buffer } {
  const encoded = encodeContent(value);
  const id = overrides.id ?? newResourceId();
  const now = Date.now();
  const meta: StoredResourceMeta = {
    id,
    uri: `ephemeral://contract/${id}`,
    owner: "session:a",
    creator: "session:a",
    name: "contract",
    mimeType: encoded.mimeType,
    kind: encoded.kind,
    size: encoded.content.length,
    total: encoded.total,
    version: 1,
    createdAt: now,
    expiresAt: now + 10 * 60_000,
    ...overrides,
  };
  return { meta, content: encoded.content, index: encoded.index };
}

async function collect(storage: ResourceStorage): Promise<StoredResourceMeta[]> {
  const all: StoredResourceMeta[] = [];
  for await (const meta of storage.list()) all.push(meta);
  return all;
}

/** Resolves when `attempt` settles as refused (StorageError) or with one of `nothing`. */
async function refusedOrNothing(attempt: () => Promise<unknown>, nothing: unknown[]): Promise<void> {
  try {
    const value = await attempt();
    expect(nothing).toContainEqual(value);
  } catch (error) {
    expect(error).toBeInstanceOf(StorageError);
  }
}

/**
 * The behaviour every `ResourceStorage` must have, as vitest tests: run it once per
 * provider so they all keep the same promises (atomic replacement, range reads that
 * stop at the end, "gone" for a replaced version, nothing for a foreign id).
 */
export function describeStorageContract(
  name: string,
  makeStorage: () => ResourceStorage | Promise<ResourceStorage>,
  options: StorageContractOptions = {},
): void {
  describe.skipIf(options.skip === true)(`ResourceStorage contract: ${name}`, () => {
    let storage: ResourceStorage;
    beforeAll(async () => {
      storage = await makeStorage();
      await (storage as { ready?: () => Promise<void> }).ready?.();
    });
    afterAll(async () => {
      await storage?.close?.();
    });

    it("stores a version and gives back its metadata, its content and its index by range", async () => {
      const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
      const { meta, content, index } = metaFor(lines.join("\n"));
      await storage.put(meta, content, index);
      expect(await storage.stat(meta.id)).toEqual(meta);
      expect(Buffer.from(await storage.read(meta.id, 1, "content", 0, meta.size))).toEqual(content);
      expect(Buffer.from(await storage.read(meta.id, 1, "content", 7, 20))).toEqual(content.subarray(7, 20));
      expect(Buffer.from(await storage.read(meta.id, 1, "index", 0, index.length))).toEqual(index);
      expect(Buffer.from(await storage.read(meta.id, 1, "index", 800, 816))).toEqual(
        index.subarray(800, 816),
      );
      expect((await storage.read(meta.id, 1, "content", 5, 5)).byteLength).toBe(0);
    });

    it.runIf(options.checksVersions === true)(
      "writes over the version a writer expected, and refuses a stale one, writing nothing",
      async () => {
        const first = metaFor("first");
        await storage.put(first.meta, first.content, first.index, 0);
        const again = metaFor("again", { id: first.meta.id });
        // 0: only if nothing is stored, and something is.
        await expect(storage.put(again.meta, again.content, again.index, 0)).rejects.toBeInstanceOf(
          VersionConflictError,
        );
        const mine = metaFor("second, from one writer", { id: first.meta.id, version: 2 });
        const theirs = metaFor("second, from another", { id: first.meta.id, version: 2 });
        await storage.put(mine.meta, mine.content, mine.index, 1);
        await expect(storage.put(theirs.meta, theirs.content, theirs.index, 1)).rejects.toBeInstanceOf(
          VersionConflictError,
        );
        expect(await storage.stat(first.meta.id)).toEqual(mine.meta);
        expect(Buffer.from(await storage.read(first.meta.id, 2, "content", 0, mine.meta.size))).toEqual(
          mine.content,
        );
      },
    );

    it("returns fewer bytes at the end of a part, and none past it", async () => {
      const { meta, content, index } = metaFor("abcdefghij");
      await storage.put(meta, content, index);
      expect(Buffer.from(await storage.read(meta.id, 1, "content", 6, 100)).toString()).toBe("ghij");
      expect((await storage.read(meta.id, 1, "content", 10, 20)).byteLength).toBe(0);
      expect((await storage.read(meta.id, 1, "content", 50, 60)).byteLength).toBe(0);
      expect((await storage.read(meta.id, 1, "index", 8, 1000)).byteLength).toBe(index.length - 8);
    });

    it("stores empty content and binary content byte for byte", async () => {
      const empty = metaFor("");
      await storage.put(empty.meta, empty.content, empty.index);
      expect((await storage.read(empty.meta.id, 1, "content", 0, 10)).byteLength).toBe(0);
      const bytes = new Uint8Array(Array.from({ length: 1000 }, (_, i) => (i * 7) % 256));
      const binary = metaFor(bytes);
      await storage.put(binary.meta, binary.content, binary.index);
      expect((await storage.read(binary.meta.id, 1, "index", 0, 10)).byteLength).toBe(0);
      expect([...(await storage.read(binary.meta.id, 1, "content", 995, 1000))]).toEqual([
        ...bytes.subarray(995),
      ]);
    });

    it("keeps what was stored even if the caller reuses its buffers", async () => {
      const { meta, content, index } = metaFor("stable content");
      await storage.put(meta, content, index);
      content.fill(0);
      expect(Buffer.from(await storage.read(meta.id, 1, "content", 0, 100)).toString()).toBe(
        "stable content",
      );
    });

    it("replaces a version: the new one is read, the old one is gone", async () => {
      const first = metaFor(["a", "b"]);
      await storage.put(first.meta, first.content, first.index);
      const second = metaFor(["c", "d", "e"], { id: first.meta.id, version: 2 });
      await storage.put(second.meta, second.content, second.index);
      expect(await storage.stat(first.meta.id)).toEqual(second.meta);
      expect(Buffer.from(await storage.read(first.meta.id, 2, "content", 0, 1000))).toEqual(second.content);
      await expect(storage.read(first.meta.id, 1, "content", 0, 10)).rejects.toBeInstanceOf(StorageError);
      const listed = (await collect(storage)).filter((m) => m.id === first.meta.id);
      expect(listed).toEqual([second.meta]);
    });

    it("deletes every version, then finds nothing", async () => {
      const { meta, content, index } = metaFor("to be deleted");
      await storage.put(meta, content, index);
      expect(await storage.delete(meta.id)).toBe(true);
      expect(await storage.stat(meta.id)).toBeUndefined();
      await expect(storage.read(meta.id, 1, "content", 0, 10)).rejects.toBeInstanceOf(StorageError);
      expect((await collect(storage)).map((m) => m.id)).not.toContain(meta.id);
      expect(await storage.delete(meta.id)).toBe(false);
    });

    it("lists every stored resource once", async () => {
      const made = await Promise.all(
        Array.from({ length: 25 }, async (_, i) => {
          const { meta, content, index } = metaFor([{ i }], { owner: i % 2 ? null : "session:b" });
          await storage.put(meta, content, index);
          return meta;
        }),
      );
      const listed = await collect(storage);
      for (const meta of made) expect(listed.filter((m) => m.id === meta.id)).toEqual([meta]);
    });

    it("finds nothing for an unknown id", async () => {
      const id = newResourceId();
      expect(await storage.stat(id)).toBeUndefined();
      await expect(storage.read(id, 1, "content", 0, 10)).rejects.toBeInstanceOf(StorageError);
      expect(await storage.delete(id)).toBe(false);
    });

    it("refuses or finds nothing for ids no server generates", async () => {
      for (const id of MALFORMED_IDS) {
        await refusedOrNothing(() => storage.stat(id), [undefined]);
        await expect(storage.read(id, 1, "content", 0, 10)).rejects.toBeInstanceOf(StorageError);
        await refusedOrNothing(() => storage.delete(id), [false]);
        if (options.validatesIds) {
          const { meta, content, index } = metaFor("x", { id });
          await expect(storage.put(meta, content, index)).rejects.toBeInstanceOf(StorageError);
        }
      }
    });

    it("reads a range at the end of 5 MB of content without reading the rest", async () => {
      const bytes = randomBytes(5 * 1024 * 1024);
      const { meta, content, index } = metaFor(new Uint8Array(bytes));
      await storage.put(meta, content, index);
      const end = meta.size;
      // Buffer.equals: a deep toEqual of 5 MB compares byte by byte through matchers, for seconds.
      const tail = Buffer.from(await storage.read(meta.id, 1, "content", end - 4096, end));
      expect(tail.equals(bytes.subarray(end - 4096))).toBe(true);
      const past = Buffer.from(await storage.read(meta.id, 1, "content", end - 100, end + 100));
      expect(past.equals(bytes.subarray(end - 100))).toBe(true);
      const whole = Buffer.from(await storage.read(meta.id, 1, "content", 0, end));
      expect(whole.length).toBe(end);
      expect(whole.equals(bytes)).toBe(true);
      expect(await storage.delete(meta.id)).toBe(true);
    });

    const reopen = options.reopen;
    if (reopen) {
      it("finds what it stored from a new instance (a restart)", async () => {
        const { meta, content, index } = metaFor(["survives"], { owner: null });
        await storage.put(meta, content, index);
        const again = await reopen();
        try {
          await (again as { ready?: () => Promise<void> }).ready?.();
          expect(await again.stat(meta.id)).toEqual(meta);
          expect((await collect(again)).map((m) => m.id)).toContain(meta.id);
          expect(Buffer.from(await again.read(meta.id, 1, "content", 0, 1000))).toEqual(content);
        } finally {
          await again.close?.();
        }
      });
    }
  });
}
