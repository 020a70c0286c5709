import { describe, expect, it } from "vitest";
import { newResourceId } from "../../../src/storage/resource-id.js";
import {
  CorruptMetaError,
  isInvalidRange,
  isNotFound,
  parseMeta,
  storageError,
  versionOfBlob,
} from "../../../src/storage/s3-helpers.js";
import { StorageError } from "../../../src/storage/storage.js";
import { metaFor } from "../../support/storage-contract.js";

/** An error shaped as the AWS SDK throws them. */
const aws = (name: string, status?: number) =>
  Object.assign(new Error(`${name} in bucket secret-bucket, key secret/key`), {
    name,
    $metadata: status === undefined ? {} : { httpStatusCode: status },
  });

describe("versionOfBlob", () => {
  it("reads the version of a data or index key and nothing else", () => {
    expect(versionOfBlob("1.data")).toBe(1);
    expect(versionOfBlob("42.index")).toBe(42);
    for (const name of ["0.data", "01.data", "1.meta", "x.data", "1.data.tmp", "-1.index", ""])
      expect(versionOfBlob(name)).toBeUndefined();
  });
});

describe("parseMeta", () => {
  it("gives back valid metadata and throws CorruptMetaError (a StorageError) for anything else", () => {
    const { meta } = metaFor("x");
    expect(parseMeta(meta.id, JSON.stringify(meta))).toEqual(meta);
    expect(() => parseMeta(newResourceId(), JSON.stringify(meta))).toThrow(CorruptMetaError);
    expect(() => parseMeta(meta.id, "{not json")).toThrow(StorageError);
    expect(() => parseMeta(meta.id, "{}")).toThrow("the stored metadata of this resource is corrupt");
  });
});

describe("AWS error classification", () => {
  it("treats a missing key as not found, but not a missing bucket", () => {
    expect(isNotFound(aws("NoSuchKey", 404))).toBe(true);
    expect(isNotFound(aws("NotFound"))).toBe(true);
    expect(isNotFound(aws("Unknown", 404))).toBe(true);
    expect(isNotFound(aws("NoSuchBucket", 404))).toBe(false);
    expect(isNotFound(aws("AccessDenied", 403))).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });

  it("recognises an invalid range by its code or by 416", () => {
    expect(isInvalidRange(aws("InvalidRange"))).toBe(true);
    expect(isInvalidRange(aws("Whatever", 416))).toBe(true);
    expect(isInvalidRange(aws("NoSuchKey", 404))).toBe(false);
  });

  it("names the operation, the code and the status, never the bucket or key", () => {
    const error = storageError("read a resource", aws("AccessDenied", 403));
    expect(error).toBeInstanceOf(StorageError);
    expect(error.message).toBe("S3 storage could not read a resource (AccessDenied, HTTP 403)");
    expect(error.message).not.toMatch(/secret/);
    expect(storageError("list resources", new Error("socket hang up")).message).toBe(
      "S3 storage could not list resources",
    );
    const kept = new StorageError("already safe");
    expect(storageError("anything", kept)).toBe(kept);
  });
});
