import { randomBytes } from "node:crypto";
import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3Storage } from "../../../src/storage/s3-storage.js";
import { StorageError, type StoredResourceMeta } from "../../../src/storage/storage.js";
import { S3RVER_CREDENTIALS, type S3rver, startS3rver } from "../../support/s3rver.js";
import { metaFor } from "../../support/storage-contract.js";

let s3rver: S3rver;
let admin: S3Client;
beforeAll(async () => {
  s3rver = await startS3rver();
  admin = new S3Client({
    endpoint: s3rver.endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: S3RVER_CREDENTIALS,
  });
});
afterAll(async () => {
  admin?.destroy();
  await s3rver?.stop();
});

const storages: S3Storage[] = [];
afterAll(async () => {
  await Promise.all(storages.map((s) => s.close()));
});
function storage(prefix: string, extra: Partial<ConstructorParameters<typeof S3Storage>[0]> = {}) {
  const made = new S3Storage({
    bucket: s3rver.bucket,
    prefix,
    endpoint: s3rver.endpoint,
    forcePathStyle: true,
    region: "us-east-1",
    credentials: S3RVER_CREDENTIALS,
    ...extra,
  });
  storages.push(made);
  return made;
}
const freshPrefix = () => `unit-${randomBytes(6).toString("hex")}`;
async function keysUnder(prefix: string): Promise<string[]> {
  const page = await admin.send(new ListObjectsV2Command({ Bucket: s3rver.bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key as string).sort();
}
async function listed(s3: S3Storage): Promise<StoredResourceMeta[]> {
  const all: StoredResourceMeta[] = [];
  for await (const meta of s3.list()) all.push(meta);
  return all;
}

describe("S3Storage options", () => {
  it("refuses a missing bucket and a list page size S3 cannot serve", () => {
    expect(() => new S3Storage({ bucket: "" })).toThrow(new StorageError("S3Storage needs a bucket name"));
    expect(() => new S3Storage({ bucket: "b", listPageSize: 1001 })).toThrow(
      "S3Storage listPageSize must be an integer from 1 to 1000, not 1001",
    );
  });
});

describe("S3Storage on s3rver", () => {
  it("keeps a resource under its prefix (a slash added) as <id>/<version>.data, .index and meta.json", async () => {
    const prefix = freshPrefix();
    const s3 = storage(prefix);
    await s3.ready();
    const first = metaFor(["a", "b"]);
    await s3.put(first.meta, first.content, first.index);
    const id = first.meta.id;
    expect(await keysUnder(`${prefix}/`)).toEqual([
      `${prefix}/${id}/1.data`,
      `${prefix}/${id}/1.index`,
      `${prefix}/${id}/meta.json`,
    ]);
    const second = metaFor(["c"], { id, version: 2 });
    await s3.put(second.meta, second.content, second.index);
    expect(await keysUnder(`${prefix}/`)).toEqual([
      `${prefix}/${id}/2.data`,
      `${prefix}/${id}/2.index`,
      `${prefix}/${id}/meta.json`,
    ]);
    expect(Buffer.from(await s3.read(id, 2, "content", 0, 1000))).toEqual(second.content);
    expect(await s3.delete(id)).toBe(true);
    expect(await keysUnder(`${prefix}/`)).toEqual([]);
  });

  it("lists across pages of the page size it was given, skipping keys it did not write", async () => {
    const prefix = freshPrefix();
    const s3 = storage(prefix, { listPageSize: 2 });
    const made = [];
    for (let i = 0; i < 5; i++) {
      const { meta, content, index } = metaFor([{ i }]);
      await s3.put(meta, content, index);
      made.push(meta.id);
    }
    await admin.send(
      new PutObjectCommand({ Bucket: s3rver.bucket, Key: `${prefix}/not-an-id/meta.json`, Body: "{}" }),
    );
    expect((await listed(s3)).map((m) => m.id).sort()).toEqual(made.sort());
  });

  it("answers a missing bucket with a StorageError that names the S3 code, never the bucket", async () => {
    const s3 = storage(freshPrefix(), { bucket: "no-such-bucket-unit" });
    const error = await s3.stat(metaFor("x").meta.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toMatch(/^S3 storage could not read the metadata \(NoSuchBucket/);
    expect((error as Error).message).not.toContain("no-such-bucket-unit");
  });
});
