import {
  CACHE,
  Cached,
  createTestClient,
  Ephemeral,
  EVENT_BUS,
  McpModule,
  McpService,
  RedisCache,
  RedisEventBus,
  RedisStorage,
  STORAGE,
  Tool,
} from "frugal-mcp";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deletePrefix, randomPrefix, redisAvailable } from "../support/services.js";

const prefix = randomPrefix("shared-providers");
const available = await redisAvailable();

@McpService()
class WideService {
  @Tool({ input: { n: z.number().int() } })
  @Cached({ ttl: 60_000, scope: "global" })
  square({ n }: { n: number }) {
    return { square: n * n };
  }

  @Tool()
  @Ephemeral({ when: "always" })
  report() {
    return [{ ok: true }];
  }
}

// As in the contract's example: provider objects made once, when the module is declared,
// and so shared by every app built from the module.
@McpModule({
  services: [WideService],
  providers: [
    { provide: CACHE, useValue: new RedisCache({ prefix: `${prefix}c:` }) },
    { provide: EVENT_BUS, useValue: new RedisEventBus({ channel: `${prefix}events` }) },
    { provide: STORAGE, useValue: new RedisStorage({ prefix: `${prefix}s:` }) },
  ],
})
class WideModule {}

describe.skipIf(!available)("providers shared by every app built from a module", () => {
  afterAll(() => deletePrefix(prefix));

  const exercise = async (client: Awaited<ReturnType<typeof createTestClient>>) => {
    const cached = await client.callTool({ name: "square", arguments: { n: 7 } });
    expect(cached.structuredContent).toEqual({ square: 49 });
    const spilled = await client.callTool({ name: "report", arguments: {} });
    expect(spilled.isError, JSON.stringify(spilled.content)).toBeFalsy();
    expect(client.app.stats().cache.backendErrors).toBe(0);
  };

  it("work again in an app built after an earlier one closed", async () => {
    const first = await createTestClient(WideModule);
    await exercise(first);
    await first.close();
    const second = await createTestClient(WideModule);
    await exercise(second);
    expect(second.app.stats().cache.hits).toBeGreaterThan(0);
    await second.close();
  });

  it("stay open for the other apps while one of them closes", async () => {
    const a = await createTestClient(WideModule);
    const b = await createTestClient(WideModule);
    await a.close();
    await exercise(b);
    await b.close();
  });
});
