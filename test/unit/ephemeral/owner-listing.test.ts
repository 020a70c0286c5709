/**
 * Listing one owner's stored results costs that owner's count, not every owner's (issue
 * 14, the reliability gap: with 15,000 resources of other owners, every `resources/list`
 * and quota check walked them all). Counted through a storage that reports what it is
 * asked, so the test says nothing about speed, only about the work done.
 */
import { describe, expect, it } from "vitest";
import { SystemClock } from "../../../src/clock/clock.js";
import { EphemeralResources } from "../../../src/ephemeral/ephemeral-resources.js";
import type { Logger } from "../../../src/logging/logger.js";
import { MemoryStorage } from "../../../src/storage/memory-storage.js";
import type { StoredResourceMeta } from "../../../src/storage/storage.js";

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

/** A MemoryStorage that counts the metadata it hands out by `list()` and `stat()`. */
class CountingStorage extends MemoryStorage {
  listed = 0;
  statted = 0;

  override async *list(): AsyncIterable<StoredResourceMeta> {
    for await (const meta of super.list()) {
      this.listed++;
      yield meta;
    }
  }

  override async stat(id: string): Promise<StoredResourceMeta | undefined> {
    this.statted++;
    return super.stat(id);
  }
}

describe("listing an owner's stored results", () => {
  it("reads only the caller's resources and the global ones, however many others hold", async () => {
    const storage = new CountingStorage();
    const resources = new EphemeralResources(storage, new SystemClock(), quiet, {});
    for (let i = 0; i < 400; i++)
      await resources.create(`other ${i}`, { tool: "t" }, `session:other${i % 7}`);
    const mine = [
      await resources.create("mine 1", { tool: "t" }, "session:me"),
      await resources.create("mine 2", { tool: "t" }, "session:me"),
    ];
    const shared = await resources.create("for all", { tool: "t", scope: "global" }, "session:other1");
    storage.listed = 0;
    storage.statted = 0;

    const listed = await resources.list("session:me");

    expect(listed.map((meta) => meta.uri).sort()).toEqual([...mine.map((m) => m.uri), shared.uri].sort());
    expect(storage.listed).toBe(0);
    expect(storage.statted).toBe(3);
  });

  it("counts quotas without walking storage on each write, and keeps the counts through deletes", async () => {
    const storage = new CountingStorage();
    const resources = new EphemeralResources(storage, new SystemClock(), quiet, { maxBytesPerOwner: 100 });
    await resources.create("x".repeat(60), { tool: "t" }, "session:a");
    const loaded = storage.listed;
    const second = await resources.create("y".repeat(40), { tool: "t" }, "session:a");
    expect(storage.listed).toBe(loaded);
    await expect(resources.create("z", { tool: "t" }, "session:a")).rejects.toThrow(/maxBytesPerOwner/);
    expect(await resources.delete(second.uri, "session:a")).toBe(true);
    await resources.create("w".repeat(40), { tool: "t" }, "session:a");
  });
});
