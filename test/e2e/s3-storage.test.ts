import { randomBytes } from "node:crypto";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import {
  CLOCK,
  createTestClient,
  Ephemeral,
  ManualClock,
  McpModule,
  McpService,
  STORAGE,
  StorageError,
  type StoredResourceMeta,
  type TestClient,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { encodeContent } from "../../src/ephemeral/content-index.js";
import { type S3ClientLike, S3Storage } from "../../src/storage/s3-storage.js";
import { S3RVER_CREDENTIALS, type S3rver, startS3rver } from "../support/s3rver.js";
import { describeStorageContract } from "../support/storage-contract.js";

const BUCKET = "frugal-test";
const CREDENTIALS = S3RVER_CREDENTIALS;

let endpoint: string;
let server: S3rver;
let admin: S3Client;

beforeAll(async () => {
  server = await startS3rver(BUCKET);
  endpoint = server.endpoint;
  admin = new S3Client({ endpoint, forcePathStyle: true, region: "us-east-1", credentials: CREDENTIALS });
});

afterAll(async () => {
  admin?.destroy();
  await server?.stop();
});

/** A prefix of its own per test, so tests never see each other's objects. */
const freshPrefix = () => `t-${randomBytes(6).toString("hex")}/`;

function storage(prefix: string, extra: Partial<ConstructorParameters<typeof S3Storage>[0]> = {}) {
  return new S3Storage({
    bucket: BUCKET,
    prefix,
    endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: CREDENTIALS,
    ...extra,
  });
}

/** Every key under a prefix, straight from the server. */
async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await admin.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, ContinuationToken: token }),
    );
    for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

const newId = () => randomBytes(16).toString("base64url");

function metaFor(
  id: string,
  value: unknown,
  version = 1,
): { meta: StoredResourceMeta; content: Buffer; index: Buffer } {
  const encoded = encodeContent(value);
  return {
    meta: {
      id,
      uri: `ephemeral://test/${id}`,
      owner: "alice",
      creator: "alice",
      name: "test",
      mimeType: encoded.mimeType,
      kind: encoded.kind,
      size: encoded.content.length,
      total: encoded.total,
      version,
      createdAt: 1,
      expiresAt: Date.now() + 60_000,
    },
    content: encoded.content,
    index: encoded.index,
  };
}

async function collect(iterable: AsyncIterable<StoredResourceMeta>): Promise<StoredResourceMeta[]> {
  const all: StoredResourceMeta[] = [];
  for await (const meta of iterable) all.push(meta);
  return all;
}

const contractPrefix = freshPrefix();
describeStorageContract("S3Storage", () => storage(contractPrefix), {
  validatesIds: true,
  // The "restarted" instance uses a client of the test's own: an S3Client is an S3ClientLike,
  // and closing that storage must leave it usable (the tests below go on using it).
  reopen: () => new S3Storage({ bucket: BUCKET, prefix: contractPrefix, client: admin }),
});

describe("S3Storage against s3rver", () => {
  it("stores a version as data, index and meta.json, stats it and reads byte ranges", async () => {
    const prefix = freshPrefix();
    const s3 = storage(prefix);
    await s3.ready();
    const id = newId();
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
    const { meta, content, index } = metaFor(id, lines);
    await s3.put(meta, content, index);

    expect(await keysUnder(prefix)).toEqual([
      `${prefix}${id}/1.data`,
      `${prefix}${id}/1.index`,
      `${prefix}${id}/meta.json`,
    ]);
    expect(await s3.stat(id)).toEqual(meta);
    expect(await s3.stat(newId())).toBeUndefined();

    const middle = await s3.read(id, 1, "content", 10, 30);
    expect(Buffer.from(middle).toString()).toBe(content.subarray(10, 30).toString());
    const index8 = await s3.read(id, 1, "index", 8, 16);
    expect(Buffer.from(index8)).toEqual(index.subarray(8, 16));
    // Fewer bytes at the end of a part, none past it, none for an empty range.
    expect((await s3.read(id, 1, "content", content.length - 3, content.length + 100)).byteLength).toBe(3);
    expect((await s3.read(id, 1, "content", content.length, content.length + 10)).byteLength).toBe(0);
    expect((await s3.read(id, 1, "content", 5, 5)).byteLength).toBe(0);
    await expect(s3.read(id, 2, "content", 0, 10)).rejects.toThrow(/version 2 of this resource is gone/);
    await s3.close();
  });

  it("reads with ranged GETs only, and never builds a key from an invalid id", async () => {
    const prefix = freshPrefix();
    const sent: Array<{ name: string; input: Record<string, unknown> }> = [];
    const real = new S3Client({
      endpoint,
      forcePathStyle: true,
      region: "us-east-1",
      credentials: CREDENTIALS,
    });
    const recording: S3ClientLike = {
      send: (command, options) => {
        sent.push({
          name: (command as object).constructor.name,
          input: (command as { input: Record<string, unknown> }).input,
        });
        return real.send(command as never, options as never);
      },
    };
    const s3 = new S3Storage({ bucket: BUCKET, prefix, client: recording });
    const id = newId();
    const { meta, content, index } = metaFor(
      id,
      Array.from({ length: 5000 }, (_, i) => ({ i })),
    );
    await s3.put(meta, content, index);
    sent.length = 0;
    await s3.read(id, 1, "content", 100, 200);
    await s3.read(id, 1, "index", 0, 64);
    expect(sent).toHaveLength(2);
    for (const { name, input } of sent) {
      expect(name).toBe("GetObjectCommand");
      expect(input.Range).toMatch(/^bytes=\d+-\d+$/);
    }
    expect(sent.map((s) => s.input.Range)).toEqual(["bytes=100-199", "bytes=0-63"]);

    sent.length = 0;
    for (const bad of ["../../etc/passwd", "a/b", "", "x".repeat(21), `${"x".repeat(21)}/`, "x".repeat(23)]) {
      await expect(s3.stat(bad)).rejects.toThrow(StorageError);
      await expect(s3.read(bad, 1, "content", 0, 1)).rejects.toThrow("invalid resource id");
      await expect(s3.delete(bad)).rejects.toThrow("invalid resource id");
      await expect(s3.put({ ...meta, id: bad }, content, index)).rejects.toThrow("invalid resource id");
    }
    expect(sent).toEqual([]);
    // close() leaves a client it was given alone.
    await s3.close();
    expect(await s3.stat(id)).toEqual(meta);
    real.destroy();
  });

  it("replaces a version atomically and removes the older blobs", async () => {
    const prefix = freshPrefix();
    const s3 = storage(prefix);
    const id = newId();
    const v1 = metaFor(id, "one\ntwo");
    await s3.put(v1.meta, v1.content, v1.index);
    const v2 = metaFor(id, "three\nfour\nfive", 2);
    await s3.put(v2.meta, v2.content, v2.index);
    expect(await s3.stat(id)).toEqual(v2.meta);
    expect(Buffer.from(await s3.read(id, 2, "content", 0, 5)).toString()).toBe("three");
    await expect(s3.read(id, 1, "content", 0, 3)).rejects.toThrow(/version 1 of this resource is gone/);
    expect(await keysUnder(prefix)).toEqual([
      `${prefix}${id}/2.data`,
      `${prefix}${id}/2.index`,
      `${prefix}${id}/meta.json`,
    ]);
    await s3.close();
  });

  it("writes meta.json last: while the new blobs are uploading, readers see the old version whole", async () => {
    const prefix = freshPrefix();
    const real = new S3Client({
      endpoint,
      forcePathStyle: true,
      region: "us-east-1",
      credentials: CREDENTIALS,
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let uploading = () => {};
    const started = new Promise<void>((resolve) => {
      uploading = resolve;
    });
    const held: S3ClientLike = {
      send: async (command, options) => {
        const key = String((command as { input: { Key?: string } }).input.Key);
        if ((command as object).constructor.name === "PutObjectCommand" && key.endsWith("/2.data")) {
          uploading();
          await gate;
        }
        return real.send(command as never, options as never);
      },
    };
    const writer = new S3Storage({ bucket: BUCKET, prefix, client: held });
    const reader = storage(prefix);
    const id = newId();
    const v1 = metaFor(id, "old line");
    await writer.put(v1.meta, v1.content, v1.index);
    const v2 = metaFor(id, "new line", 2);
    const writing = writer.put(v2.meta, v2.content, v2.index);
    await started;
    expect(await reader.stat(id)).toEqual(v1.meta);
    expect(Buffer.from(await reader.read(id, 1, "content", 0, 100)).toString()).toBe("old line");
    release();
    await writing;
    expect(await reader.stat(id)).toEqual(v2.meta);
    expect(Buffer.from(await reader.read(id, 2, "content", 0, 100)).toString()).toBe("new line");
    await reader.close();
    real.destroy();
  });

  it("removes the blobs of a write that failed before its metadata, and keeps the version before it", async () => {
    const prefix = freshPrefix();
    const real = new S3Client({
      endpoint,
      forcePathStyle: true,
      region: "us-east-1",
      credentials: CREDENTIALS,
    });
    let failIndex = false;
    const flaky: S3ClientLike = {
      send: async (command, options) => {
        const key = String((command as { input: { Key?: string } }).input.Key);
        const put = (command as object).constructor.name === "PutObjectCommand";
        if (failIndex && put && key.endsWith(".index"))
          throw Object.assign(new Error("boom"), { name: "SlowDown" });
        return real.send(command as never, options as never);
      },
    };
    const s3 = new S3Storage({ bucket: BUCKET, prefix, client: flaky });
    const id = newId();
    const v1 = metaFor(id, "kept");
    await s3.put(v1.meta, v1.content, v1.index);
    failIndex = true;
    const v2 = metaFor(id, "lost", 2);
    await expect(s3.put(v2.meta, v2.content, v2.index)).rejects.toThrow(
      "S3 storage could not store the content (SlowDown)",
    );
    expect(await s3.stat(id)).toEqual(v1.meta);
    expect(await keysUnder(prefix)).toEqual([
      `${prefix}${id}/1.data`,
      `${prefix}${id}/1.index`,
      `${prefix}${id}/meta.json`,
    ]);
    real.destroy();
  });

  it("lists across ListObjectsV2 pages, ignores foreign keys, and deletes meta then blobs", async () => {
    const prefix = freshPrefix();
    const s3 = storage(prefix, { listPageSize: 2 });
    const ids = Array.from({ length: 5 }, newId);
    for (const id of ids) {
      const { meta, content, index } = metaFor(id, [id]);
      await s3.put(meta, content, index);
    }
    // Not this storage's objects: skipped by list().
    const { PutObjectCommand } = await import("@aws-sdk/client-s3");
    await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${prefix}notes.txt`, Body: "x" }));
    await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${prefix}short/meta.json`, Body: "{}" }));
    await admin.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: `${prefix}${newId()}/meta.json`, Body: "{" }),
    );

    const listed = await collect(s3.list());
    expect(listed.map((m) => m.id).sort()).toEqual([...ids].sort());
    // Another prefix in the same bucket sees none of them.
    expect(await collect(storage(freshPrefix()).list())).toEqual([]);

    const [gone, ...kept] = ids as [string, ...string[]];
    expect(await s3.delete(gone)).toBe(true);
    expect(await s3.delete(gone)).toBe(false);
    expect(await s3.stat(gone)).toBeUndefined();
    expect((await keysUnder(`${prefix}${gone}/`)).length).toBe(0);
    expect((await collect(s3.list())).map((m) => m.id).sort()).toEqual([...kept].sort());
    await s3.close();
  });

  it("fails with a clear StorageError when the bucket is missing", async () => {
    const s3 = storage(freshPrefix(), { bucket: "no-such-bucket" });
    await expect(s3.ready()).rejects.toThrow(StorageError);
    const error = await s3.stat(newId()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toMatch(/^S3 storage could not read the metadata \(NoSuchBucket/);
    expect((error as Error).message).not.toContain("no-such-bucket");
    const { meta, content, index } = metaFor(newId(), [1]);
    await expect(s3.put(meta, content, index)).rejects.toThrow(/S3 storage could not store the content/);
    await s3.close();
  });

  it("says which package to install when @aws-sdk/client-s3 is missing", async () => {
    vi.resetModules();
    vi.doMock("@aws-sdk/client-s3", () => {
      throw new Error("Cannot find package '@aws-sdk/client-s3'");
    });
    try {
      const { S3Storage: Fresh } = await import("../../src/storage/s3-storage.js");
      const s3 = new Fresh({ bucket: BUCKET });
      await expect(s3.ready()).rejects.toThrow(
        "S3Storage needs the optional @aws-sdk/client-s3 package: npm install @aws-sdk/client-s3",
      );
      await expect(s3.stat(newId())).rejects.toThrow(/npm install @aws-sdk\/client-s3/);
    } finally {
      vi.doUnmock("@aws-sdk/client-s3");
      vi.resetModules();
    }
  });
});

// ---- end to end, through an app ----

const RECORDS = Array.from({ length: 3000 }, (_, i) => ({
  i,
  level: i % 50 === 0 ? "ERROR" : "INFO",
  message: `request ${i} served`,
}));

@McpService()
class ReportsService {
  @Tool({ input: { level: z.string() } })
  @Ephemeral({ ttl: 60_000, description: "matching records" })
  records({ level }: { level: string }) {
    return RECORDS.filter((r) => level === "*" || r.level === level);
  }

  @Tool()
  @Ephemeral({ when: "always", scope: "global", ttl: 60_000, name: "shared report" })
  sharedReport() {
    return RECORDS.slice(0, 100);
  }

  @Tool()
  @Ephemeral({ ttl: 1_000 })
  shortLived() {
    return RECORDS;
  }

  @Tool({ input: { uri: z.string() } })
  async remove({ uri }: { uri: string }, ctx: ToolContext) {
    return { deleted: await ctx.resources.delete(uri) };
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

type Link = { type: string; uri: string };

async function spill(client: TestClient["client"], name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const [link] = result.content as [Link];
  expect(link.type).toBe("resource_link");
  return link.uri;
}

describe("S3Storage end to end through createTestClient", () => {
  const open: TestClient[] = [];
  const app = async (prefix: string, extra: Parameters<typeof createTestClient>[1] = {}) => {
    const t = await createTestClient(ReportsModule, {
      readyTimeoutMs: 5_000,
      ...extra,
      providers: [{ provide: STORAGE, useValue: storage(prefix) }, ...(extra.providers ?? [])],
    });
    open.push(t);
    return t;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((t) => t.close()));
  });

  it("spills a large result to S3, lists it, reads it in slices, searches it and deletes it", async () => {
    const prefix = freshPrefix();
    const t = await app(prefix);
    const uri = await spill(t.client, "records", { level: "*" });
    const id = uri.split("/").pop() as string;
    expect(await keysUnder(prefix)).toEqual([
      `${prefix}${id}/1.data`,
      `${prefix}${id}/1.index`,
      `${prefix}${id}/meta.json`,
    ]);

    const { resources } = await t.client.listResources();
    expect(resources.map((r) => r.uri)).toContain(uri);

    const first = (await t.client.callTool({ name: "read_resource", arguments: { uri } }))
      .structuredContent as { items: Array<{ i: number }>; count: number; nextOffset: number; total: number };
    expect(first.total).toBe(3000);
    expect(first.count).toBeGreaterThan(10);
    expect(first.items[0]).toEqual(RECORDS[0]);
    const deep = (
      await t.client.callTool({ name: "read_resource", arguments: { uri, offset: 2990, limit: 20 } })
    ).structuredContent as { items: Array<{ i: number }>; nextOffset: number | null };
    expect(deep.items.map((r) => r.i)).toEqual(Array.from({ length: 10 }, (_, k) => 2990 + k));
    expect(deep.nextOffset).toBeNull();

    const found = (
      await t.client.callTool({
        name: "search_resource",
        arguments: { uri, pattern: '"level":"ERROR"', limit: 3 },
      })
    ).structuredContent as { matches: Array<{ index: number }>; nextOffset: number };
    expect(found.matches.map((m) => m.index)).toEqual([0, 50, 100]);
    const later = (
      await t.client.callTool({
        name: "search_resource",
        arguments: { uri, pattern: "request 2999 ", offset: found.nextOffset },
      })
    ).structuredContent as { matches: Array<{ index: number }> };
    expect(later.matches.map((m) => m.index)).toEqual([2999]);

    const whole = await t.client.readResource({ uri });
    expect(JSON.parse((whole.contents[0] as { text: string }).text)).toHaveLength(3000);

    expect((await t.client.callTool({ name: "remove", arguments: { uri } })).structuredContent).toEqual({
      deleted: true,
    });
    await expect(t.client.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    expect(await keysUnder(prefix)).toEqual([]);
  });

  it("hides a session's resource from another session", async () => {
    const t = await app(freshPrefix());
    const uri = await spill(t.client, "records", { level: "INFO" });
    const other = await t.connect();
    expect((await other.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
    await expect(other.readResource({ uri })).rejects.toMatchObject({ code: -32002, data: { uri } });
    const stolen = await other.callTool({ name: "read_resource", arguments: { uri } });
    expect(stolen.isError).toBe(true);
    expect(JSON.stringify(stolen.content)).not.toContain("served");
    expect((await other.callTool({ name: "remove", arguments: { uri } })).structuredContent).toEqual({
      deleted: false,
    });
    expect((await t.client.readResource({ uri })).contents).toHaveLength(1);
  });

  it("keeps a global resource across a restart: a new app on the same bucket and prefix reads it", async () => {
    const prefix = freshPrefix();
    const before = await app(prefix);
    const uri = await spill(before.client, "shared_report");
    await before.close();
    open.splice(open.indexOf(before), 1);

    const after = await app(prefix);
    expect((await after.client.listResources()).resources.map((r) => r.uri)).toContain(uri);
    const slice = (
      await after.client.callTool({ name: "read_resource", arguments: { uri, offset: 95, limit: 10 } })
    ).structuredContent as { items: Array<{ i: number }>; hasMore: boolean };
    expect(slice.items.map((r) => r.i)).toEqual([95, 96, 97, 98, 99]);
    expect(slice.hasMore).toBe(false);
    const whole = await after.client.readResource({ uri });
    expect(JSON.parse((whole.contents[0] as { text: string }).text)).toHaveLength(100);
  });

  it("expires a resource after a short real ttl", async () => {
    const t = await app(freshPrefix());
    const started = Date.now();
    const uri = await spill(t.client, "short_lived");
    if (Date.now() - started < 800) expect((await t.client.readResource({ uri })).contents).toHaveLength(1);
    // A real timer on purpose: this test is about the real clock's 1 s ttl (the next one uses a ManualClock).
    // It waits for the expiry the server set (the spill may finish well after `started` on a loaded machine).
    const listed = (await t.client.listResources()).resources.find((r) => r.uri === uri);
    const expiresAt = Date.parse(String((listed?._meta as { expiresAt?: string } | undefined)?.expiresAt));
    expect(Number.isFinite(expiresAt)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now() + 50)));
    await expect(t.client.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    expect((await t.client.listResources()).resources.map((r) => r.uri)).not.toContain(uri);
    expect((await t.client.callTool({ name: "read_resource", arguments: { uri } })).isError).toBe(true);
  });

  it("expires by the app's clock, and the sweep deletes the objects", async () => {
    const prefix = freshPrefix();
    const clock = new ManualClock(Date.UTC(2026, 10, 29, 12));
    const t = await app(prefix, {
      providers: [{ provide: CLOCK, useValue: clock }],
      ephemeral: { sweepIntervalMs: 50 },
    });
    const uri = await spill(t.client, "records", { level: "*" });
    clock.advance(59_999);
    expect((await t.client.readResource({ uri })).contents).toHaveLength(1);
    expect((await keysUnder(prefix)).length).toBe(3);
    clock.advance(2);
    await expect(t.client.readResource({ uri })).rejects.toMatchObject({ code: -32002 });
    await expect.poll(() => keysUnder(prefix), { timeout: 5_000 }).toEqual([]);
  });
});
