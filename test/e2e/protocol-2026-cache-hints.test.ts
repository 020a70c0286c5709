import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Cached, CLOCK, ManualClock, McpFactory, McpModule, McpService, Resource } from "frugal-mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpApp2026 } from "../../src/app/app-2026.js";

let reads = 0;

@McpService()
class HintedResources {
  @Resource("config://app", { mimeType: "application/json" })
  @Cached({ ttl: 60_000, scope: "global" })
  config() {
    reads++;
    return { theme: "dark" };
  }

  @Resource("notes://mine")
  @Cached({ ttl: 30_000, scope: "owner" })
  notes() {
    return "my notes";
  }

  @Resource("plain://now")
  plain() {
    return "not cached";
  }
}

@McpModule({ services: [HintedResources] })
class HintsModule {}

type Mode = "legacy" | { pin: "2026-07-28" };

describe('protocol: "2026-07-28": cache hints from @Cached on resources/read', () => {
  const clock = new ManualClock(1_000_000);
  let app: McpApp2026;
  beforeAll(async () => {
    app = (await McpFactory.create(HintsModule, {
      name: "hints",
      version: "1.0.0",
      protocol: "2026-07-28",
      providers: [{ provide: CLOCK, useValue: clock }],
    })) as McpApp2026;
  });
  afterAll(() => app.close());

  async function connect(mode: Mode) {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.connectAnyEra(serverSide);
    const client = new Client({ name: "v2-client", version: "1.0.0" }, { versionNegotiation: { mode } });
    await client.connect(clientSide);
    return client;
  }
  const hintsOf = (result: Record<string, unknown>) => ({
    ttlMs: result.ttlMs,
    cacheScope: result.cacheScope,
  });

  /** Reads with a fresh client each time: a v2 client keeps a result for its ttlMs and would not ask again. */
  async function readOnce(uri: string) {
    const client = await connect({ pin: "2026-07-28" });
    try {
      return hintsOf(await client.readResource({ uri }));
    } finally {
      await client.close();
    }
  }

  it("ttlMs is the entry's remaining lifetime: the full ttl when stored, less as the entry ages", async () => {
    expect(await readOnce("config://app")).toEqual({ ttlMs: 60_000, cacheScope: "public" });
    clock.advance(15_000);
    expect(await readOnce("config://app")).toEqual({ ttlMs: 45_000, cacheScope: "public" });
    clock.advance(44_999);
    expect(await readOnce("config://app")).toEqual({ ttlMs: 1, cacheScope: "public" });
    expect(reads).toBe(1); // both later reads were hits
    clock.advance(1); // the entry has expired: read again, stored again, full lifetime
    expect(await readOnce("config://app")).toEqual({ ttlMs: 60_000, cacheScope: "public" });
    expect(reads).toBe(2);
  });

  it('an owner-scoped entry is "private"; an uncached resource keeps the default (0, private)', async () => {
    expect(await readOnce("notes://mine")).toEqual({ ttlMs: 30_000, cacheScope: "private" });
    expect(await readOnce("plain://now")).toEqual({ ttlMs: 0, cacheScope: "private" });
  });

  it("a 2025-11-25 read carries no cache hints", async () => {
    const client = await connect("legacy");
    const result = await client.readResource({ uri: "config://app" });
    expect(result.ttlMs).toBeUndefined();
    expect(result.cacheScope).toBeUndefined();
    await client.close();
  });
});
