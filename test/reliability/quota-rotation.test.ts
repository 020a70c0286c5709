/**
 * Issue 13, finding 10: rotating sessions must not lock anyone out of ephemeral storage.
 * Every session is a new owner with its own quota, so new sessions can fill the quota of
 * all owners together. When that quota is reached, a write evicts the oldest resources of
 * the anonymous (session) creators holding the most bytes, other than the writer.
 *
 * The properties measured:
 *   P1 no lock-out: while rotating sessions keep the global quota full, every write of a
 *      newcomer within its own quota is accepted;
 *   P2 largest first: an owner holding less than the rotating sessions loses nothing;
 *   P3 the quota of all owners together still holds at every step;
 *   P4 principals' resources are never evicted, and a write that evicting every
 *      anonymous resource could not fit is refused, evicting nothing.
 *
 *   npx vitest run test/reliability/quota-rotation.test.ts
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  ManualClock,
  McpModule,
  McpService,
  MemoryStorage,
  STORAGE,
  Tool,
  type ToolContext,
} from "frugal-mcp";
import { createTestClient, type TestClient } from "frugal-mcp/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { EphemeralResources } from "../../src/ephemeral/ephemeral-resources.js";
import { StderrLogger } from "../../src/logging/logger.js";

const KiB = 1024;
const MiB = 1024 * KiB;
const TOTAL = 4 * MiB;
const PER_OWNER = 1 * MiB;

@McpService()
class ReportsService {
  @Tool({ input: { kib: z.number().int().min(1) } })
  async store({ kib }: { kib: number }, ctx: ToolContext) {
    const info = await ctx.resources.create("x".repeat(kib * KiB), { mimeType: "text/plain" });
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

describe("rotating sessions cannot lock out a new owner", () => {
  let t: TestClient;
  let storage: MemoryStorage;
  beforeEach(async () => {
    storage = new MemoryStorage({ maxBytes: 64 * MiB });
    t = await createTestClient(ReportsModule, {
      ephemeral: { tools: true, maxTotalBytes: TOTAL, maxBytesPerOwner: PER_OWNER },
      providers: [{ provide: STORAGE, useValue: storage }],
    });
  });
  afterEach(() => t.close());

  /** Opens a session (a new owner) and stores `kib` KiB from it. */
  const fromNewSession = async (kib: number) => {
    const session = await t.connect();
    const result = await session.callTool({ name: "store", arguments: { kib } });
    return { session, result, uri: (result.structuredContent as { uri?: string } | undefined)?.uri };
  };
  const readable = async (client: Client, uri: string) => {
    const read = await client.callTool({ name: "read_resource", arguments: { uri, limit: 1 } });
    return !read.isError;
  };

  it("accepts every newcomer while rotating sessions fill the global quota, evicting the largest holders first", async () => {
    const refusals: string[] = [];
    const attackers: Array<{ session: Client; uri: string }> = [];
    const rotate = async (sessions: number) => {
      for (let i = 0; i < sessions; i++) {
        const { session, result, uri } = await fromNewSession(PER_OWNER / KiB);
        if (result.isError || !uri) refusals.push(JSON.stringify(result.content));
        else attackers.push({ session, uri });
        expect(await storedBytes(storage)).toBeLessThanOrEqual(TOTAL); // P3
      }
    };

    await rotate(12); // three times what the global quota holds
    const newcomer = await fromNewSession(512); // P1
    console.log(
      `rotation: 12 rotating sessions of ${PER_OWNER / MiB} MiB into a ${TOTAL / MiB} MiB global quota: ${refusals.length} refused; a newcomer's 512 KiB write ${newcomer.result.isError ? "refused" : "accepted"}`,
    );
    expect(newcomer.result.isError, JSON.stringify(newcomer.result.content)).toBeFalsy();
    const equal = await fromNewSession(PER_OWNER / KiB); // P1, as large as the rotating sessions
    expect(equal.result.isError, JSON.stringify(equal.result.content)).toBeFalsy();

    await rotate(12);
    expect(refusals).toEqual([]);
    // P2: the smaller owner kept its resource through 12 more rotations; the rotating
    // sessions (the largest holders) were evicted, oldest first.
    expect(await readable(newcomer.session, newcomer.uri as string)).toBe(true);
    const kept = [];
    for (const a of attackers) kept.push(await readable(a.session, a.uri));
    // What is left beside the newcomer's 512 KiB: the newest rotating sessions, oldest evicted first.
    const fit = Math.floor((TOTAL - 512 * KiB) / PER_OWNER);
    expect(kept).toEqual(attackers.map((_, i) => i >= attackers.length - fit));
    expect(await storedBytes(storage)).toBeLessThanOrEqual(TOTAL); // P3
  });
});

describe("what eviction never does", () => {
  const logger = new StderrLogger("error");
  const make = () =>
    new EphemeralResources(new MemoryStorage({ maxBytes: 64 * MiB }), new ManualClock(0), logger, {
      maxTotalBytes: TOTAL,
      maxBytesPerOwner: 2 * MiB,
    });
  const text = (bytes: number) => "y".repeat(bytes);

  it("evicts only other anonymous creators' resources, and only when that makes room (P4)", async () => {
    const resources = make();
    const alice = await resources.create(text(2 * MiB), {}, "principal:alice");
    const bob = await resources.create(text(1.5 * MiB), {}, "principal:bob");
    const anonymous = await resources.create(text(0.5 * MiB), {}, "session:s1");
    // Full. 1 MiB more needs 1 MiB freed; anonymous creators hold only 0.5 MiB: refused, nothing evicted.
    await expect(resources.create(text(MiB), {}, "session:s2")).rejects.toThrow(
      /quota of all owners together/,
    );
    // A writer's own resources never make room for it.
    await expect(resources.create(text(0.5 * MiB), {}, "session:s1")).rejects.toThrow(
      /quota of all owners together/,
    );
    expect(await resources.stat(anonymous.uri, "session:s1")).toBeDefined();
    // A write that evicting s1's resource makes room for evicts it, and nothing else.
    const carol = await resources.create(text(0.5 * MiB), {}, "principal:carol");
    expect(carol.size).toBe(0.5 * MiB);
    expect(await resources.stat(anonymous.uri, "session:s1")).toBeUndefined();
    expect(await resources.stat(alice.uri, "principal:alice")).toBeDefined();
    expect(await resources.stat(bob.uri, "principal:bob")).toBeDefined();
    // Principals are never evicted: with only principals' resources left, a write is refused.
    await expect(resources.create(text(MiB), {}, "session:s3")).rejects.toThrow(
      /quota of all owners together/,
    );
    expect(await resources.stat(carol.uri, "principal:carol")).toBeDefined();
  });
});
