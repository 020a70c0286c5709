/**
 * Issue 13: with default settings, the quota of all owners together must be met before
 * `MemoryStorage` refuses a write. It was 2 GiB over a 256 MiB storage, so it never was:
 * once rotating sessions filled the storage, every write was refused ("memory storage is
 * full") and nothing was ever evicted. Now `ephemeral.maxTotalBytes` defaults to the
 * storage's `capacityBytes` when that is smaller (MemoryStorage: its `maxBytes`); set above
 * it, the storage's cap wins and writes past it are refused by name, evicting nothing.
 *
 *   npx vitest run --config vitest.reliability.config.ts test/reliability/storage-quota-defaults.test.ts
 */
import { McpModule, McpService, MemoryStorage, STORAGE, Tool, type ToolContext } from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EPHEMERAL_DEFAULTS, settingsForStorage } from "../../src/ephemeral/ephemeral-settings.js";

const KiB = 1024;
const MiB = 1024 * KiB;
/** 1 KiB lines: the index (8 bytes a line) is under 1 % of the content. */
const LINE = `${"x".repeat(KiB - 1)}\n`;

@McpService()
class ReportsService {
  @Tool({ input: { kib: z.number().int().min(1) } })
  async store({ kib }: { kib: number }, ctx: ToolContext) {
    const info = await ctx.resources.create(LINE.repeat(kib), { mimeType: "text/plain" });
    return { uri: info.uri };
  }
}

@McpModule({ services: [ReportsService] })
class ReportsModule {}

async function storedBytes(storage: MemoryStorage): Promise<number> {
  let bytes = 0;
  for await (const meta of storage.list()) bytes += meta.size;
  return bytes;
}

const text = (result: { content?: unknown }) =>
  ((result.content as Array<{ text?: string }> | undefined) ?? []).map((c) => c.text ?? "").join("\n");

describe("the default quota of all owners and MemoryStorage's cap agree", () => {
  let t: TestClient | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("defaults the quota of all owners to the storage's capacity when that is smaller", () => {
    const memory = new MemoryStorage();
    expect(memory.capacityBytes).toBe(256 * MiB);
    expect(settingsForStorage(undefined, memory).maxTotalBytes).toBe(256 * MiB);
    expect(settingsForStorage({ tools: true }, new MemoryStorage({ maxBytes: 8 * MiB })).maxTotalBytes).toBe(
      8 * MiB,
    );
    // A storage that reports no capacity (File, Redis, S3) keeps the 2 GiB default.
    expect(settingsForStorage(undefined, {}).maxTotalBytes).toBe(EPHEMERAL_DEFAULTS.maxTotalBytes);
    // A larger storage does not raise the default; a given value is kept as it is.
    expect(settingsForStorage(undefined, new MemoryStorage({ maxBytes: 8 * 1024 * MiB })).maxTotalBytes).toBe(
      EPHEMERAL_DEFAULTS.maxTotalBytes,
    );
    expect(settingsForStorage({ maxTotalBytes: 5 }, memory).maxTotalBytes).toBe(5);
  });

  it("evicts rotating anonymous sessions' results instead of refusing writes, with no quota set", async () => {
    const storage = new MemoryStorage({ maxBytes: 4 * MiB });
    t = await createTestClient(ReportsModule, {
      ephemeral: { tools: true },
      providers: [{ provide: STORAGE, useValue: storage }],
    });
    const refusals: string[] = [];
    let peak = 0;
    for (let i = 0; i < 12; i++) {
      const session = await t.connect();
      const result = await session.callTool({ name: "store", arguments: { kib: 1000 } });
      if (result.isError) refusals.push(text(result as { content?: unknown }));
      peak = Math.max(peak, await storedBytes(storage));
      await session.close();
    }
    console.log(
      `[figures] storage-quota-defaults: 12 rotating 1,000 KiB writes into a 4 MiB MemoryStorage, ${refusals.length} refused, peak ${(peak / MiB).toFixed(2)} MiB`,
    );
    // Before: writes 5 to 12 refused ("memory storage is full"), nothing evicted.
    expect(refusals).toEqual([]);
    expect(peak).toBeLessThanOrEqual(4 * MiB);
  });

  it("lets the storage's cap win over a larger quota: the write is refused by name, nothing evicted", async () => {
    const storage = new MemoryStorage({ maxBytes: 4 * MiB });
    t = await createTestClient(ReportsModule, {
      ephemeral: { tools: true, maxTotalBytes: 64 * MiB },
      providers: [{ provide: STORAGE, useValue: storage }],
    });
    const outcomes: Array<{ isError: boolean; text: string }> = [];
    for (let i = 0; i < 5; i++) {
      const session = await t.connect();
      const result = await session.callTool({ name: "store", arguments: { kib: 1000 } });
      outcomes.push({ isError: result.isError === true, text: text(result as { content?: unknown }) });
    }
    expect(outcomes.slice(0, 4).every((o) => !o.isError)).toBe(true);
    expect(outcomes[4]?.isError).toBe(true);
    expect(outcomes[4]?.text).toContain("MemoryStorage maxBytes");
    expect(await storedBytes(storage)).toBe(4 * 1000 * KiB);
  });
});
