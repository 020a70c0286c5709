// Over 300 lines on purpose: one class, the whole STORAGE contract on S3 (put, read, delete, listing),
// each method short; its key and metadata helpers live in s3-helpers.ts.
import type * as S3 from "@aws-sdk/client-s3";
import { fieldOf } from "../common/guards.js";
import { isResourceId } from "./resource-id.js";
import {
  CorruptMetaError,
  isInvalidRange,
  isNotFound,
  parseMeta,
  storageError,
  versionOfBlob,
} from "./s3-helpers.js";
import { type ResourceStorage, StorageError, type StoragePart, type StoredResourceMeta } from "./storage.js";
import { checkedId, checkedVersion, checkRange } from "./storage-checks.js";

/**
 * The part of an S3 client that `S3Storage` uses: an `S3Client` of `@aws-sdk/client-s3`
 * (v3) fits. Declared structurally so this package's types never depend on the AWS SDK.
 */
export interface S3ClientLike {
  /** Sends one command (`PutObjectCommand`, `GetObjectCommand`, …) and resolves with its output. */
  send(command: unknown, options?: unknown): Promise<unknown>;
  /** Closes the client's connections; `S3Storage.close()` calls it only on a client it made itself. */
  destroy?(): void;
}

/** Options of `S3Storage`. */
export interface S3StorageOptions {
  bucket: string;
  /** Prefix of every key this storage writes (default `frugal/ephemeral/`; a `/` is added if missing). */
  prefix?: string;
  /** A client you own (it is not destroyed by `close()`); otherwise one is built from the options below. */
  client?: S3ClientLike;
  /** Region of the client built here (default: the SDK's chain, e.g. `AWS_REGION`). */
  region?: string;
  /** Endpoint of an S3-compatible service (MinIO, R2, …) for the client built here. */
  endpoint?: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible services need. */
  forcePathStyle?: boolean;
  /** Static credentials for the client built here (default: the SDK's chain). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Keys per ListObjectsV2 page in `list()` (1–1000, default 1000). */
  listPageSize?: number;
}

type Sdk = typeof S3;

const MISSING_SDK = "S3Storage needs the optional @aws-sdk/client-s3 package: npm install @aws-sdk/client-s3";
/** Metadata objects fetched at once while listing. */
const LIST_CONCURRENCY = 16;

/**
 * A `STORAGE` provider on Amazon S3 or any S3-compatible service, so ephemeral resources
 * survive restarts and are shared by every instance pointing at the same bucket and prefix.
 * Needs the optional peer dependency `@aws-sdk/client-s3`, loaded on first use.
 *
 * Layout, per resource: `<prefix><id>/<version>.data` and `<version>.index` (immutable),
 * then `<prefix><id>/meta.json`, written last: S3 replaces an object atomically, so a
 * reader sees the old version or the new one, never half of one. Older versions are
 * deleted once the new metadata is in place. Reads are ranged GETs of a few KiB, never a
 * whole blob. Keys are built only from ids the server generated (22 base64url characters).
 *
 * A write that fails between its blobs and its metadata leaves unreferenced blobs; an S3
 * lifecycle rule expiring objects under the prefix after your longest TTL removes them.
 * The bucket policy needs s3:GetObject, s3:PutObject, s3:DeleteObject and s3:ListBucket.
 *
 * @example
 * ```ts
 * providers: [
 *   { provide: STORAGE, useValue: new S3Storage({ bucket: "my-app", prefix: "mcp/ephemeral/", region: "eu-west-1" }) },
 * ]
 * ```
 */
export class S3Storage implements ResourceStorage {
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly pageSize: number;
  private sdkLoading: Promise<Sdk> | undefined;
  private ownClient: S3ClientLike | undefined;

  constructor(private readonly options: S3StorageOptions) {
    if (!options.bucket) throw new StorageError("S3Storage needs a bucket name");
    const prefix = options.prefix ?? "frugal/ephemeral/";
    this.bucket = options.bucket;
    this.prefix = prefix === "" || prefix.endsWith("/") ? prefix : `${prefix}/`;
    const pageSize = options.listPageSize ?? 1000;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) {
      throw new StorageError(`S3Storage listPageSize must be an integer from 1 to 1000, not ${pageSize}`);
    }
    this.pageSize = pageSize;
  }

  /** Loads the SDK and checks that the bucket can be reached; `McpFactory.create` waits for this (briefly). */
  async ready(): Promise<void> {
    const { sdk, client } = await this.connect();
    await this.call("reach the bucket", () =>
      client.send(new sdk.HeadBucketCommand({ Bucket: this.bucket })),
    );
  }

  async put(meta: StoredResourceMeta, content: Uint8Array, index: Uint8Array): Promise<void> {
    const base = this.base(meta.id);
    const version = checkedVersion(meta.version);
    const { sdk, client } = await this.connect();
    const putObject = (key: string, body: Uint8Array | string, contentType: string) =>
      client.send(
        new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
      );
    const blobs = [`${base}${version}.data`, `${base}${version}.index`];
    // Both settle before any cleanup, so a slower upload cannot land after its deletion.
    const uploads = await Promise.allSettled([
      putObject(blobs[0] as string, content, "application/octet-stream"),
      putObject(blobs[1] as string, index, "application/octet-stream"),
    ]);
    const failed = uploads.find((u): u is PromiseRejectedResult => u.status === "rejected");
    if (failed) {
      // No metadata points at this version yet, so what did get written can go (best effort).
      await this.deleteKeys(blobs).catch(() => {});
      throw storageError("store the content", failed.reason);
    }
    // Last: from here on readers see this version, whose blobs are complete. (If this fails,
    // the blobs stay: the write may have landed even so. delete() or a lifecycle rule removes them.)
    await this.call("store the metadata", () =>
      putObject(`${base}meta.json`, JSON.stringify(meta), "application/json"),
    );
    if (version > 1) {
      // Best effort: a leftover older version is unreferenced and goes with delete().
      try {
        const older = (await this.keysUnder(base)).filter((key) => {
          const v = versionOfBlob(key.slice(base.length));
          return v !== undefined && v < version;
        });
        await this.deleteKeys(older);
      } catch {
        // Left for delete() to remove.
      }
    }
  }

  async stat(id: string): Promise<StoredResourceMeta | undefined> {
    const key = `${this.base(id)}meta.json`;
    const { sdk, client } = await this.connect();
    let text: string;
    try {
      const output = await getObject(client, new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      text = (await output.Body?.transformToString("utf8")) ?? "";
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw storageError("read the metadata", error);
    }
    return parseMeta(id, text);
  }

  async read(
    id: string,
    version: number,
    part: StoragePart,
    start: number,
    end: number,
  ): Promise<Uint8Array> {
    const base = this.base(id);
    checkedVersion(version);
    if (part !== "content" && part !== "index") throw new StorageError(`unknown part "${String(part)}"`);
    checkRange(start, end);
    if (end <= start) return new Uint8Array(0);
    const key = `${base}${version}.${part === "content" ? "data" : "index"}`;
    const { sdk, client } = await this.connect();
    let output: S3.GetObjectCommandOutput;
    try {
      output = await getObject(
        client,
        new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=${start}-${end - 1}` }),
      );
    } catch (error) {
      if (isNotFound(error)) {
        throw new StorageError(
          `version ${version} of this resource is gone; it was updated or deleted; read it again`,
        );
      }
      // The range starts at or past the end of the part: nothing to read there.
      if (isInvalidRange(error)) return new Uint8Array(0);
      throw storageError("read the content", error);
    }
    if (output.ContentLength !== undefined && output.ContentLength > end - start) {
      // The server ignored the Range header: do not download the whole blob.
      const destroy = fieldOf(output.Body, "destroy");
      if (typeof destroy === "function") destroy.call(output.Body);
      throw new StorageError("the S3 server ignored a ranged read; it must support Range requests");
    }
    const bytes = (await output.Body?.transformToByteArray()) ?? new Uint8Array(0);
    return bytes.byteLength > end - start ? bytes.subarray(0, end - start) : bytes;
  }

  async delete(id: string): Promise<boolean> {
    const base = this.base(id);
    const keys = await this.keysUnder(base);
    const metaKey = `${base}meta.json`;
    const existed = keys.includes(metaKey);
    // Metadata first: from then on the resource is gone for readers, whatever happens to its blobs.
    if (existed) await this.deleteKeys([metaKey]);
    await this.deleteKeys(keys.filter((key) => key !== metaKey));
    return existed;
  }

  async *list(): AsyncIterable<StoredResourceMeta> {
    const { sdk, client } = await this.connect();
    let token: string | undefined;
    do {
      const page = await this.call("list resources", () =>
        listObjects(
          client,
          new sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.prefix,
            MaxKeys: this.pageSize,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
        ),
      );
      const ids: string[] = [];
      for (const object of page.Contents ?? []) {
        const id = this.idOfMetaKey(object.Key);
        if (id !== undefined) ids.push(id);
      }
      for (let i = 0; i < ids.length; i += LIST_CONCURRENCY) {
        const metas = await Promise.all(
          ids.slice(i, i + LIST_CONCURRENCY).map((id) =>
            // Deleted since the listing, or unreadable: skipped rather than failing the whole list.
            this.stat(id).catch((error: unknown) => {
              if (error instanceof CorruptMetaError) return undefined;
              throw error;
            }),
          ),
        );
        for (const meta of metas) if (meta) yield meta;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /** Destroys the client this storage built (not one passed in); a later call builds a new one. */
  async close(): Promise<void> {
    this.ownClient?.destroy?.();
    this.ownClient = undefined;
  }

  private loadSdk(): Promise<Sdk> {
    this.sdkLoading ??= import("@aws-sdk/client-s3").catch((error: unknown) => {
      this.sdkLoading = undefined;
      throw new StorageError(MISSING_SDK, { cause: error });
    });
    return this.sdkLoading;
  }

  private async connect(): Promise<{ sdk: Sdk; client: S3ClientLike }> {
    const sdk = await this.loadSdk();
    if (this.options.client) return { sdk, client: this.options.client };
    if (!this.ownClient) {
      const { region, endpoint, forcePathStyle, credentials } = this.options;
      this.ownClient = new sdk.S3Client({
        ...(region === undefined ? {} : { region }),
        ...(endpoint === undefined ? {} : { endpoint }),
        ...(forcePathStyle === undefined ? {} : { forcePathStyle }),
        ...(credentials === undefined ? {} : { credentials }),
      }) as unknown as S3ClientLike;
    }
    return { sdk, client: this.ownClient };
  }

  /** `<prefix><id>/`, after checking that the id is one the server could have generated. */
  private base(id: string): string {
    return `${this.prefix}${checkedId(id)}/`;
  }

  private idOfMetaKey(key: string | undefined): string | undefined {
    if (key === undefined || !key.startsWith(this.prefix)) return undefined;
    const rest = key.slice(this.prefix.length);
    const id = rest.slice(0, -"/meta.json".length);
    return rest.endsWith("/meta.json") && isResourceId(id) ? id : undefined;
  }

  /** Every key under `base` (one resource's folder). */
  private async keysUnder(base: string): Promise<string[]> {
    const { sdk, client } = await this.connect();
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.call("list the resource's objects", () =>
        listObjects(
          client,
          new sdk.ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: base,
            ...(token === undefined ? {} : { ContinuationToken: token }),
          }),
        ),
      );
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return keys;
  }

  /**
   * One DeleteObject per key, in turn: a resource has three or so, not every S3-compatible
   * service has DeleteObjects, and some race when deleting siblings at once.
   */
  private async deleteKeys(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const { sdk, client } = await this.connect();
    for (const key of keys) {
      await this.call("delete the resource", () =>
        client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
      );
    }
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw storageError(what, error);
    }
  }
}

/** A GetObject through `S3ClientLike`, which types every answer as `unknown`: the SDK answers with its output. */
function getObject(client: S3ClientLike, command: S3.GetObjectCommand): Promise<S3.GetObjectCommandOutput> {
  return client.send(command) as Promise<S3.GetObjectCommandOutput>;
}

/** A ListObjectsV2 through `S3ClientLike` (see `getObject`). */
function listObjects(
  client: S3ClientLike,
  command: S3.ListObjectsV2Command,
): Promise<S3.ListObjectsV2CommandOutput> {
  return client.send(command) as Promise<S3.ListObjectsV2CommandOutput>;
}
