import { execFileSync } from "node:child_process";
import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CLOCK,
  createTestClient,
  Ephemeral,
  ManualClock,
  McpModule,
  McpService,
  MemoryStorage,
  type ResourceStorage,
  STORAGE,
  StorageError,
  type StoredResourceMeta,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FileStorage } from "../../src/storage/file-storage.js";
import { RedisStorage } from "../../src/storage/redis-storage.js";
import { newResourceId } from "../../src/storage/resource-id.js";
import { deletePrefix, REDIS_URL, randomPrefix, redisAvailable } from "../support/services.js";
import { describeStorageContract, MALFORMED_IDS, metaFor } from "../support/storage-contract.js";

const PREFIX = randomPrefix("storage-providers");
const redisUp = await redisAvailable();
const root = mkdtempSync(join(tmpdir(), "frugal-storage-providers-"));

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  if (redisUp) await deletePrefix(PREFIX);
});

// ---- the shared contract ---------------------------------------------------------------

describeStorageContract("MemoryStorage", () => new MemoryStorage());
describeStorageContract("FileStorage", () => new FileStorage({ dir: join(root, "contract") }), {
  validatesIds: true,
  checksVersions: true,
  reopen: () => new FileStorage({ dir: join(root, "contract") }),
});
describeStorageContract("RedisStorage", () => new RedisStorage({ prefix: `${PREFIX}contract:` }), {
  skip: !redisUp,
  validatesIds: true,
  checksVersions: true,
  reopen: () => new RedisStorage({ prefix: `${PREFIX}contract:` }),
});
describeStorageContract(
  "RedisStorage writing and reading in 64 KiB chunks",
  () => new RedisStorage({ prefix: `${PREFIX}chunked:`, chunkBytes: 64 * 1024 }),
  {
    skip: !redisUp,
    validatesIds: true,
    checksVersions: true,
    reopen: () => new RedisStorage({ prefix: `${PREFIX}chunked:`, chunkBytes: 64 * 1024 }),
  },
);

// ---- end to end, through an MCP client -------------------------------------------------

const ROWS = Array.from({ length: 3000 }, (_, i) => ({
  i,
  line: `row ${i} ${i % 50 === 0 ? "NEEDLE" : "hay"} ${"x".repeat(40)}`,
}));

@McpService()
class ReportsService {
  @Tool()
  @Ephemeral({ ttl: 60_000, description: "every row" })
  bigReport() {
    return ROWS;
  }

  @Tool()
  @Ephemeral({ when: "always", scope: "global", ttl: 600_000, name: "shared report" })
  sharedReport() {
    return ROWS.slice(0, 100);
  }

  @Tool()
  @Ephemeral({ when: "always", ttl: 300 })
  shortLived() {
    return ROWS.slice(0, 10);
  }

  @Tool({ input: { uri: z.string(), rows: z.number().int() } })
  async rewrite({ uri, rows }: { uri: string; rows: number }, ctx: ToolContext) {
    const updated = await ctx.resources.update(uri, ROWS.slice(0, rows));
    const slice = await ctx.resources.read(uri, { offset: rows - 2, limit: 10 });
    return { version: updated.version, total: updated.total, last: slice.items };
  }

  @Tool({ input: { uri: z.string() } })
  async remove({ uri }: { uri: string }, ctx: ToolContext) {
    return { deleted: await ctx.resources.delete(uri) };
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

type Link = { type: string; uri: string; name: string };
type Slice = { items: Array<{ i: number }>; count: number; total: number; version: number; hasMore: boolean };

const idOf = (uri: string) => uri.split("/").pop() as string;

async function spill(client: TestClient["client"], name: string): Promise<Link> {
  const result = await client.callTool({ name, arguments: {} });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const link = (result.content as Link[])[0] as Link;
  expect(link.type).toBe("resource_link");
  return link;
}

async function slice(client: TestClient["client"], uri: string, offset: number, limit: number) {
  const result = await client.callTool({ name: "read_resource", arguments: { uri, offset, limit } });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  return result.structuredContent as Slice;
}

/** How one provider is set up for the end-to-end tests, and where its bytes end up. */
interface Backend {
  name: string;
  skip: boolean;
  /** A fresh provider instance on the same backing store (the app closes the one it gets). */
  make(): ResourceStorage;
  /** Files or keys of one resource left in the backing store. */
  leftovers(id: string): Promise<string[]>;
}

const fileDir = join(root, "e2e");
const redisE2ePrefix = `${PREFIX}e2e:`;

async function scanKeys(pattern: string): Promise<string[]> {
  const client = new Redis(REDIS_URL);
  try {
    const keys: string[] = [];
    let cursor = "0";
    do {
      const [next, batch] = await client.scan(cursor, "MATCH", pattern, "COUNT", 500);
      cursor = next;
      keys.push(...batch);
    } while (cursor !== "0");
    return keys;
  } finally {
    client.disconnect();
  }
}

const backends: Backend[] = [
  {
    name: "FileStorage",
    skip: false,
    make: () => new FileStorage({ dir: fileDir }),
    leftovers: async (id) => readdirSync(fileDir).filter((name) => name.includes(id)),
  },
  {
    name: "RedisStorage",
    skip: !redisUp,
    make: () => new RedisStorage({ prefix: redisE2ePrefix }),
    leftovers: (id) => scanKeys(`${redisE2ePrefix}*${id}*`),
  },
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(`ephemeral resources end to end on ${backend.name}`, () => {
    let t: TestClient;
    beforeAll(async () => {
      t = await createTestClient(ReportsModule, {
        providers: [{ provide: STORAGE, useValue: backend.make() }],
      });
    });
    afterAll(() => t?.close());

    it("spills a result, lists it, reads it in slices and searches it", async () => {
      const link = await spill(t.client, "big_report");
      expect(link.uri).toMatch(/^ephemeral:\/\/big_report\/[A-Za-z0-9_-]{22}$/);
      const { resources } = await t.client.listResources();
      expect(resources.map((r) => r.uri)).toContain(link.uri);
      const first = await slice(t.client, link.uri, 0, 10);
      expect(first.items.map((x) => x.i)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(first).toMatchObject({ total: 3000, version: 1, hasMore: true });
      const last = await slice(t.client, link.uri, 2990, 50);
      expect(last.items.map((x) => x.i)).toEqual(Array.from({ length: 10 }, (_, i) => 2990 + i));
      expect(last.hasMore).toBe(false);
      const whole = await t.client.readResource({ uri: link.uri });
      expect(JSON.parse((whole.contents[0] as { text: string }).text)).toEqual(ROWS);
      const found = await t.client.callTool({
        name: "search_resource",
        arguments: { uri: link.uri, pattern: "NEEDLE", limit: 3 },
      });
      const matches = (found.structuredContent as { matches: Array<{ index: number }> }).matches;
      expect(matches.map((m) => m.index)).toEqual([0, 50, 100]);
      expect((await backend.leftovers(idOf(link.uri))).length).toBeGreaterThanOrEqual(3);
    });

    it("updates and deletes through ctx.resources, leaving nothing of older versions behind", async () => {
      const link = await spill(t.client, "big_report");
      const id = idOf(link.uri);
      const rewritten = await t.client.callTool({ name: "rewrite", arguments: { uri: link.uri, rows: 5 } });
      expect(rewritten.structuredContent).toEqual({ version: 2, total: 5, last: [ROWS[3], ROWS[4]] });
      expect(await slice(t.client, link.uri, 0, 50)).toMatchObject({ total: 5, version: 2, count: 5 });
      const versions = (await backend.leftovers(id)).filter((name) => /[.:]1(\.|$)/.test(name.slice(-8)));
      expect(versions).toEqual([]);
      const removed = await t.client.callTool({ name: "remove", arguments: { uri: link.uri } });
      expect(removed.structuredContent).toEqual({ deleted: true });
      await expect(t.client.readResource({ uri: link.uri })).rejects.toMatchObject({ code: -32002 });
      expect(await backend.leftovers(id)).toEqual([]);
    });

    it("keeps one owner's resources from another session", async () => {
      const link = await spill(t.client, "big_report");
      const other = await t.connect();
      expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain(link.uri);
      await expect(other.readResource({ uri: link.uri })).rejects.toMatchObject({
        code: -32002,
        data: { uri: link.uri },
      });
      const stolen = await other.callTool({ name: "read_resource", arguments: { uri: link.uri } });
      expect(stolen.isError).toBe(true);
      expect(JSON.stringify(stolen.content)).not.toContain("row ");
      const removed = await other.callTool({ name: "remove", arguments: { uri: link.uri } });
      expect(removed.structuredContent).toEqual({ deleted: false });
      expect((await slice(t.client, link.uri, 0, 1)).total).toBe(3000);
    });

    it("serves a global resource made by one app to a new app on the same store (a restart)", async () => {
      const first = await createTestClient(ReportsModule, {
        providers: [{ provide: STORAGE, useValue: backend.make() }],
      });
      const link = await spill(first.client, "shared_report");
      await first.close();
      const restarted = await createTestClient(ReportsModule, {
        providers: [{ provide: STORAGE, useValue: backend.make() }],
      });
      try {
        expect((await restarted.client.listResources()).resources.map((r) => r.uri)).toContain(link.uri);
        const whole = await restarted.client.readResource({ uri: link.uri });
        expect(JSON.parse((whole.contents[0] as { text: string }).text)).toEqual(ROWS.slice(0, 100));
        expect((await slice(restarted.client, link.uri, 95, 10)).items.map((x) => x.i)).toEqual([
          95, 96, 97, 98, 99,
        ]);
      } finally {
        await restarted.close();
      }
    });
  });
}

describe("expiry on FileStorage, by the app's clock", () => {
  it("hides an expired resource at once and the sweeper deletes its files", async () => {
    const dir = join(root, "expiry");
    const clock = new ManualClock(Date.now());
    const t = await createTestClient(ReportsModule, {
      providers: [
        { provide: STORAGE, useValue: new FileStorage({ dir }) },
        { provide: CLOCK, useValue: clock },
      ],
      ephemeral: { sweepIntervalMs: 20 },
    });
    try {
      const link = await spill(t.client, "big_report");
      const id = idOf(link.uri);
      expect(readdirSync(dir).filter((n) => n.startsWith(id))).toHaveLength(3);
      clock.advance(59_000);
      expect((await slice(t.client, link.uri, 0, 1)).total).toBe(3000);
      clock.advance(1_001);
      await expect(t.client.readResource({ uri: link.uri })).rejects.toMatchObject({ code: -32002 });
      expect((await t.client.listResources()).resources.map((r) => r.uri)).not.toContain(link.uri);
      await expect.poll(() => readdirSync(dir).filter((n) => n.startsWith(id))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!redisUp)("expiry on RedisStorage, by Redis itself", () => {
  it("lets Redis drop every key of a resource when its TTL ends, with no sweeper", async () => {
    const prefix = `${PREFIX}ttl:`;
    const t = await createTestClient(ReportsModule, {
      providers: [{ provide: STORAGE, useValue: new RedisStorage({ prefix }) }],
      ephemeral: { sweepIntervalMs: 3_600_000 },
    });
    try {
      const link = await spill(t.client, "short_lived");
      const id = idOf(link.uri);
      const keys = await scanKeys(`${prefix}*${id}*`);
      expect(keys.sort()).toEqual([`${prefix}c:{${id}}:1`, `${prefix}m:{${id}}`, `${prefix}x:{${id}}:1`]);
      const raw = new Redis(REDIS_URL);
      try {
        for (const key of keys) {
          const ttl = await raw.pttl(key);
          expect(ttl).toBeGreaterThan(0);
          expect(ttl).toBeLessThanOrEqual(300);
        }
      } finally {
        raw.disconnect();
      }
      await expect.poll(() => scanKeys(`${prefix}*${id}*`), { timeout: 3000, interval: 50 }).toEqual([]);
      await expect(t.client.readResource({ uri: link.uri })).rejects.toMatchObject({ code: -32002 });
      expect((await t.client.listResources()).resources.map((r) => r.uri)).not.toContain(link.uri);
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!redisUp)("expiry on RedisStorage, by the app's clock", () => {
  // A test clock far from the wall clock, either way: Redis's TTLs must count from the app's now.
  for (const [label, start] of [
    ["in the past", Date.UTC(2020, 0, 1)],
    ["in the future", Date.now() + 365 * 24 * 3_600_000],
  ] as const) {
    it(`keeps a resource for its TTL on the app's clock when that clock is ${label}`, async () => {
      const prefix = `${PREFIX}clock-${start}:`;
      const clock = new ManualClock(start);
      const t = await createTestClient(ReportsModule, {
        providers: [
          { provide: STORAGE, useValue: new RedisStorage({ prefix }) },
          { provide: CLOCK, useValue: clock },
        ],
        ephemeral: { sweepIntervalMs: 3_600_000 },
      });
      try {
        const link = await spill(t.client, "big_report");
        const id = idOf(link.uri);
        const raw = new Redis(REDIS_URL);
        try {
          // Stored with Redis TTLs of the resource's 60 s (minus the time the test took so far).
          const keys = await scanKeys(`${prefix}*${id}*`);
          expect(keys).toHaveLength(3);
          for (const key of keys) {
            const ttl = await raw.pttl(key);
            expect(ttl, key).toBeGreaterThan(30_000);
            expect(ttl, key).toBeLessThanOrEqual(60_000);
          }
          for (const key of await scanKeys(`${prefix}o:*`))
            expect(await raw.pttl(key)).toBeLessThanOrEqual(60_000);
        } finally {
          raw.disconnect();
        }
        expect((await t.client.listResources()).resources.map((r) => r.uri)).toContain(link.uri);
        expect((await slice(t.client, link.uri, 0, 1)).total).toBe(3000);
        clock.advance(59_000);
        expect((await t.client.listResources()).resources.map((r) => r.uri)).toContain(link.uri);
        expect((await slice(t.client, link.uri, 2999, 1)).items.map((x) => x.i)).toEqual([2999]);
        clock.advance(1_001);
        await expect(t.client.readResource({ uri: link.uri })).rejects.toMatchObject({ code: -32002 });
        expect((await t.client.listResources()).resources.map((r) => r.uri)).not.toContain(link.uri);
      } finally {
        await t.close();
        await deletePrefix(prefix);
      }
    });
  }
});

// ---- FileStorage: the disk layout and hostile directories --------------------------------

describe("FileStorage on disk", () => {
  it("creates its directory private, and files private", async () => {
    const dir = join(root, "fresh", "nested");
    const storage = new FileStorage({ dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const { meta, content, index } = metaFor(["a"]);
    await storage.put(meta, content, index);
    expect(readdirSync(dir).sort()).toEqual(
      [`${meta.id}.1.data`, `${meta.id}.1.index`, `${meta.id}.meta.json`].sort(),
    );
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(dir, `${meta.id}.meta.json`), "utf8"))).toEqual(meta);
  });

  it("skips temporary files and malformed metadata when listing, and refuses malformed metadata on stat", async () => {
    const dir = join(root, "malformed");
    const storage = new FileStorage({ dir });
    const good = metaFor(["ok"]);
    await storage.put(good.meta, good.content, good.index);
    const broken = newResourceId();
    const foreign = newResourceId();
    writeFileSync(join(dir, `${broken}.meta.json`), "{not json");
    // Valid metadata, but of another id: a file copied or planted under the wrong name.
    writeFileSync(join(dir, `${foreign}.meta.json`), JSON.stringify(good.meta));
    writeFileSync(join(dir, `.${good.meta.id}.0123456789abcdef.tmp`), JSON.stringify(good.meta));
    writeFileSync(join(dir, "notes.meta.json"), JSON.stringify(good.meta));
    writeFileSync(join(dir, `${good.meta.id}.meta.json.bak`), JSON.stringify(good.meta));
    const listed: StoredResourceMeta[] = [];
    for await (const meta of storage.list()) listed.push(meta);
    expect(listed).toEqual([good.meta]);
    await expect(storage.stat(broken)).rejects.toThrow(/malformed/);
    await expect(storage.stat(foreign)).rejects.toThrow(/malformed/);
    expect(await storage.delete(broken)).toBe(true);
    expect(existsSync(join(dir, `${broken}.meta.json`))).toBe(false);
  });

  it("removes what a crash left behind (old temporary files and unreferenced blobs), but not a write in progress", async () => {
    const dir = join(root, "orphans");
    const first = new FileStorage({ dir });
    const kept = metaFor(["kept"]);
    await first.put(kept.meta, kept.content, kept.index);
    const orphan = newResourceId();
    const stale = [
      `${orphan}.1.data`,
      `${orphan}.1.index`,
      `${kept.meta.id}.7.data`,
      `.${orphan}.00000000000000ff.tmp`,
    ];
    const fresh = [`${orphan}.2.data`, `.${orphan}.0000000000000aaa.tmp`];
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of [...stale, ...fresh]) writeFileSync(join(dir, name), "partial");
    for (const name of stale) utimesSync(join(dir, name), hourAgo, hourAgo);
    const restarted = new FileStorage({ dir });
    const listed: string[] = [];
    for await (const meta of restarted.list()) listed.push(meta.id);
    expect(listed).toEqual([kept.meta.id]);
    const left = readdirSync(dir);
    for (const name of stale) expect(left).not.toContain(name);
    for (const name of fresh) expect(left).toContain(name);
    expect(Buffer.from(await restarted.read(kept.meta.id, 1, "content", 0, 100))).toEqual(kept.content);
  });

  it("keeps the previous version whole, and nothing of the new one, when a write fails", async () => {
    const dir = join(root, "failing");
    const storage = new FileStorage({ dir });
    const first = metaFor(["v1"]);
    await storage.put(first.meta, first.content, first.index);
    const second = metaFor(["v2"], { id: first.meta.id, version: 2 });
    // The content is written, then the index cannot be: the write must fail as a whole.
    const unwritable = 42 as unknown as Uint8Array;
    await expect(storage.put(second.meta, second.content, unwritable)).rejects.toBeInstanceOf(StorageError);
    expect(await storage.stat(first.meta.id)).toEqual(first.meta);
    expect(Buffer.from(await storage.read(first.meta.id, 1, "content", 0, 100))).toEqual(first.content);
    expect(readdirSync(dir).sort()).toEqual(
      [`${first.meta.id}.1.data`, `${first.meta.id}.1.index`, `${first.meta.id}.meta.json`].sort(),
    );
    const fresh = metaFor(["new"]);
    await expect(storage.put(fresh.meta, fresh.content, unwritable)).rejects.toBeInstanceOf(StorageError);
    expect(await storage.stat(fresh.meta.id)).toBeUndefined();
    expect(readdirSync(dir).filter((name) => name.includes(fresh.meta.id))).toEqual([]);
  });

  it("never lets a reader see a mix of two versions while one is replaced", async () => {
    const storage = new FileStorage({ dir: join(root, "atomic") });
    const id = newResourceId();
    const versionText = (v: number) => `version ${v} `.repeat(2000 + v * 10);
    const put = async (v: number) => {
      const { meta, content, index } = metaFor(versionText(v), { id, version: v });
      await storage.put(meta, content, index);
    };
    await put(1);
    let writing = true;
    const writer = (async () => {
      for (let v = 2; v <= 40; v++) await put(v);
      writing = false;
    })();
    let consistent = 0;
    try {
      while (writing) {
        const meta = await storage.stat(id);
        if (!meta) throw new Error("the resource vanished while being replaced");
        try {
          const text = Buffer.from(await storage.read(id, meta.version, "content", 0, meta.size)).toString();
          expect(text).toBe(versionText(meta.version));
          consistent++;
        } catch (error) {
          // A version replaced between stat and read is "gone", never half of another.
          expect(error).toBeInstanceOf(StorageError);
          expect((error as Error).message).toContain("gone");
        }
      }
    } finally {
      await writer;
    }
    expect(consistent).toBeGreaterThan(0);
    expect((await storage.stat(id))?.version).toBe(40);
    expect(readdirSync(join(root, "atomic")).sort()).toEqual([
      `${id}.40.data`,
      `${id}.40.index`,
      `${id}.meta.json`,
    ]);
  });
});

describe("FileStorage against path traversal and planted links", () => {
  const base = join(root, "hostile");
  const dir = join(base, "res");
  const evil = join(base, "res-evil");
  const canary = join(base, "canary.txt");
  const CANARY = "canary: must never be read, changed or removed\n";
  let storage: FileStorage;
  let before: { canary: number; evil: string[]; base: string[] };

  const snapshot = () => ({
    canary: statSync(canary).mtimeMs,
    evil: readdirSync(evil).sort(),
    base: readdirSync(base).sort(),
  });

  beforeAll(() => {
    mkdirSync(evil, { recursive: true });
    writeFileSync(canary, CANARY);
    storage = new FileStorage({ dir });
    before = snapshot();
  });

  afterAll(() => {
    // Nothing outside the storage directory was written, created, removed or changed.
    expect(readFileSync(canary, "utf8")).toBe(CANARY);
    expect(snapshot()).toEqual(before);
    expect(readFileSync("/etc/passwd", "utf8").length).toBeGreaterThan(0);
  });

  /** Every way of naming a file outside `dir` that a client could try. */
  const corpus = [
    ...MALFORMED_IDS,
    "../res-evil/AAAAAAAAAA",
    "..%2Fres-evil%2FAAAAAAAAAAAAA",
    "../../../../etc/passwd",
    "......................",
    "..\\..\\..\\..\\windows\\x",
    `${"A".repeat(21)}.`,
    `.${"A".repeat(21)}`,
    `${"A".repeat(10)}..${"A".repeat(10)}`,
    `${"A".repeat(20)}/.`,
    "~/AAAAAAAAAAAAAAAAAAAA",
    "AAAAAAAAAAAAAAAAAAAAAé",
    " AAAAAAAAAAAAAAAAAAAAA",
    "AAAAAAAAAAAAAAAAAAAAA ",
  ];

  it.each(corpus.map((id) => [JSON.stringify(id), id]))(
    "refuses the id %s before touching the disk",
    async (_, id) => {
      const files = readdirSync(dir).sort();
      await expect(storage.stat(id)).rejects.toBeInstanceOf(StorageError);
      await expect(storage.read(id, 1, "content", 0, 100)).rejects.toBeInstanceOf(StorageError);
      await expect(storage.read(id, 1, "index", 0, 100)).rejects.toBeInstanceOf(StorageError);
      await expect(storage.delete(id)).rejects.toBeInstanceOf(StorageError);
      const { meta, content, index } = metaFor(CANARY, { id });
      await expect(storage.put(meta, content, index)).rejects.toBeInstanceOf(StorageError);
      expect(readdirSync(dir).sort()).toEqual(files);
    },
  );

  it("refuses versions that are not positive integers", async () => {
    const { meta, content, index } = metaFor("x");
    await storage.put(meta, content, index);
    for (const version of [
      0,
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      "1/../../x" as unknown as number,
    ]) {
      await expect(storage.read(meta.id, version, "content", 0, 10)).rejects.toBeInstanceOf(StorageError);
      await expect(storage.put({ ...meta, version }, content, index)).rejects.toBeInstanceOf(StorageError);
    }
    await expect(storage.read(meta.id, 1, "content", -5, 10)).rejects.toBeInstanceOf(StorageError);
    expect(await storage.delete(meta.id)).toBe(true);
  });

  it("never follows a planted metadata link, to /etc/passwd or to valid metadata outside", async () => {
    const toPasswd = newResourceId();
    symlinkSync("/etc/passwd", join(dir, `${toPasswd}.meta.json`));
    const outside = metaFor(["SECRET outside"], { owner: null });
    writeFileSync(join(evil, `${outside.meta.id}.meta.json`), JSON.stringify(outside.meta));
    writeFileSync(join(evil, `${outside.meta.id}.1.data`), outside.content);
    writeFileSync(join(evil, `${outside.meta.id}.1.index`), outside.index);
    before = snapshot();
    symlinkSync(join(evil, `${outside.meta.id}.meta.json`), join(dir, `${outside.meta.id}.meta.json`));
    symlinkSync(`../res-evil/${outside.meta.id}.1.data`, join(dir, `${outside.meta.id}.1.data`));

    await expect(storage.stat(toPasswd)).rejects.toThrow(/symbolic link|refused/);
    await expect(storage.stat(outside.meta.id)).rejects.toThrow(/refused/);
    await expect(storage.read(outside.meta.id, 1, "content", 0, 1000)).rejects.toThrow(/refused/);
    const listed: string[] = [];
    for await (const meta of storage.list()) listed.push(meta.id);
    expect(listed).not.toContain(toPasswd);
    expect(listed).not.toContain(outside.meta.id);

    // Deleting removes the links themselves, never what they point to.
    expect(await storage.delete(toPasswd)).toBe(true);
    expect(await storage.delete(outside.meta.id)).toBe(true);
    expect(existsSync(join(dir, `${outside.meta.id}.1.data`))).toBe(false);
    expect(readdirSync(evil).sort()).toEqual(before.evil);
    expect(readFileSync(join(evil, `${outside.meta.id}.1.data`))).toEqual(outside.content);
  });

  it("writes over a planted blob link by replacing the link, never through it", async () => {
    const { meta, content, index } = metaFor("mine");
    symlinkSync(canary, join(dir, `${meta.id}.1.data`));
    symlinkSync(canary, join(dir, `${meta.id}.meta.json`));
    await storage.put(meta, content, index);
    expect(lstatSync(join(dir, `${meta.id}.1.data`)).isSymbolicLink()).toBe(false);
    expect(Buffer.from(await storage.read(meta.id, 1, "content", 0, 100)).toString()).toBe("mine");
    expect(readFileSync(canary, "utf8")).toBe(CANARY);
    expect(await storage.delete(meta.id)).toBe(true);
  });

  it("refuses a hard link to a file outside, a directory, and a FIFO in place of a file", async () => {
    const linked = metaFor("x");
    await storage.put(linked.meta, linked.content, linked.index);
    const blob = join(dir, `${linked.meta.id}.1.data`);
    rmSync(blob);
    linkSync(canary, blob);
    await expect(storage.read(linked.meta.id, 1, "content", 0, 100)).rejects.toThrow(/refused/);
    expect(await storage.delete(linked.meta.id)).toBe(true);
    expect(readFileSync(canary, "utf8")).toBe(CANARY);

    const asDirectory = newResourceId();
    mkdirSync(join(dir, `${asDirectory}.meta.json`));
    await expect(storage.stat(asDirectory)).rejects.toThrow(/refused/);
    rmSync(join(dir, `${asDirectory}.meta.json`), { recursive: true });

    const fifo = newResourceId();
    execFileSync("mkfifo", [join(dir, `${fifo}.meta.json`)]);
    await expect(storage.stat(fifo)).rejects.toThrow(/refused/);
    const listed: string[] = [];
    for await (const meta of storage.list()) listed.push(meta.id);
    expect(listed).not.toContain(fifo);
    expect(await storage.delete(fifo)).toBe(true);
  });

  it("resolves its directory once: a directory given through a link stays the real one", async () => {
    const alias = join(base, "res-alias");
    symlinkSync(dir, alias);
    const aliased = new FileStorage({ dir: alias });
    expect(aliased.dir).toBe(storage.dir);
    const { meta, content, index } = metaFor("via alias");
    await aliased.put(meta, content, index);
    expect(await storage.stat(meta.id)).toEqual(meta);
    rmSync(alias);
    before = snapshot();
    expect(await storage.delete(meta.id)).toBe(true);
  });

  it("refuses a storage directory that is a file", () => {
    expect(() => new FileStorage({ dir: canary })).toThrow(StorageError);
    expect(readFileSync(canary, "utf8")).toBe(CANARY);
  });
});

// ---- RedisStorage specifics -------------------------------------------------------------

describe.skipIf(!redisUp)("RedisStorage keys", () => {
  it("expires every key with the resource, and leaves no temporary keys after a chunked write", async () => {
    const prefix = `${PREFIX}keys:`;
    const storage = new RedisStorage({ prefix, chunkBytes: 16 * 1024 });
    await storage.ready();
    try {
      const { meta, content, index } = metaFor(
        Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n"),
        { expiresAt: Date.now() + 120_000 },
      );
      expect(content.length).toBeGreaterThan(16 * 1024);
      await storage.put(meta, content, index);
      const keys = (await scanKeys(`${prefix}*`)).sort();
      expect(keys).toEqual([
        `${prefix}c:{${meta.id}}:1`,
        `${prefix}m:{${meta.id}}`,
        `${prefix}o:owner:${meta.owner}`,
        `${prefix}x:{${meta.id}}:1`,
      ]);
      const raw = new Redis(REDIS_URL);
      try {
        for (const key of keys) {
          const ttl = await raw.pttl(key);
          expect(ttl).toBeGreaterThan(110_000);
          expect(ttl).toBeLessThanOrEqual(120_000);
        }
        await raw.set(`${prefix}m:{${newResourceId()}}`, "not json");
        await raw.set(`${prefix}m:{not-an-id}`, JSON.stringify(meta));
      } finally {
        raw.disconnect();
      }
      const listed: string[] = [];
      for await (const m of storage.list()) listed.push(m.id);
      expect(listed).toEqual([meta.id]);
      expect(Buffer.from(await storage.read(meta.id, 1, "content", 16 * 1024 - 10, 16 * 1024 + 10))).toEqual(
        content.subarray(16 * 1024 - 10, 16 * 1024 + 10),
      );
    } finally {
      await storage.close();
    }
  });

  it("treats its prefix literally when scanning (glob characters match only themselves)", async () => {
    const globbing = new RedisStorage({ prefix: `${PREFIX}a*[b]?:` });
    const neighbour = new RedisStorage({ prefix: `${PREFIX}aXbY:` });
    await globbing.ready();
    await neighbour.ready();
    try {
      const mine = metaFor("mine");
      const theirs = metaFor("theirs");
      await globbing.put(mine.meta, mine.content, mine.index);
      await neighbour.put(theirs.meta, theirs.content, theirs.index);
      const listed: string[] = [];
      for await (const m of globbing.list()) listed.push(m.id);
      expect(listed).toEqual([mine.meta.id]);
    } finally {
      await globbing.close();
      await neighbour.close();
    }
  });

  it("fails fast with a StorageError when Redis is unreachable", async () => {
    const dead = new RedisStorage({ url: "redis://127.0.0.1:1", prefix: `${PREFIX}dead:` });
    await dead.ready().catch(() => {});
    const { meta, content, index } = metaFor("x");
    const started = performance.now();
    await expect(dead.put(meta, content, index)).rejects.toBeInstanceOf(StorageError);
    await expect(dead.stat(meta.id)).rejects.toBeInstanceOf(StorageError);
    expect(performance.now() - started).toBeLessThan(2000);
    await dead.close();
  });

  it("does not take an adopted client's connection down on close", async () => {
    const client = new Redis(REDIS_URL);
    const adopted = new RedisStorage({ client, prefix: `${PREFIX}adopted:` });
    await adopted.ready();
    await adopted.close();
    expect(await client.ping()).toBe("PONG");
    client.disconnect();
  });
});
