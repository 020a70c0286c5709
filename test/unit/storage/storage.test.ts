import { describe, expect, it } from "vitest";
import { StorageError, VersionConflictError } from "../../../src/storage/storage.js";

describe("storage errors", () => {
  it("are named, so a caller can tell a conflict (read again) from a failing backend", () => {
    const failed = new StorageError(
      "redis storage: writing resource x failed (Redis did not answer in time)",
    );
    const conflict = new VersionConflictError("resource x changed since version 1 was read; read it again");
    expect([failed.name, conflict.name]).toEqual(["StorageError", "VersionConflictError"]);
    // A conflict is a storage error too: code that only knows StorageError still handles it.
    expect(conflict).toBeInstanceOf(StorageError);
    expect(failed).not.toBeInstanceOf(VersionConflictError);
    expect(String(conflict)).toBe(
      "VersionConflictError: resource x changed since version 1 was read; read it again",
    );
  });

  it("keep their cause", () => {
    const cause = new Error("ECONNRESET");
    expect(new StorageError("S3 storage could not read a resource", { cause }).cause).toBe(cause);
  });
});
