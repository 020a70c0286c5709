/**
 * `@Cached` is a capability holding the "cache" place of PIPELINE_ORDER: a user's stage placed
 * after "cache" still runs inside it (on misses only), whatever its name, and one placed
 * after "interceptors" runs around it (on hits too).
 */
import {
  Cached,
  type CapabilityCall,
  createTestClient,
  defineCapability,
  McpModule,
  McpService,
  type TestClient,
  Tool,
} from "frugal-mcp";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";

const seen: string[] = [];
const tracer = (name: string, after: "cache" | "interceptors") =>
  defineCapability({
    name,
    decorator: `@${name}`,
    options: () => ({}),
    stage: {
      after,
      create: () => async (call: CapabilityCall, next: () => Promise<unknown>) => {
        seen.push(`${name}:${String((call.input as { q: string }).q)}`);
        return next();
      },
    },
  });
// "aa…" sorts before "cache": where a stage runs follows its place, never its name.
const AaInside = tracer("aaInside", "cache");
const Around = tracer("around", "interceptors");

let runs = 0;

@McpService()
class Lookup {
  @Tool({ input: { q: z.string() } })
  @Cached({ ttl: 60_000 })
  @AaInside()
  @Around()
  find({ q }: { q: string }) {
    runs++;
    return { q, runs };
  }
}

@McpModule({ services: [Lookup] })
class LookupModule {}

describe("@Cached as a capability: the places around it", () => {
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    seen.length = 0;
    runs = 0;
  });

  it('runs a stage placed after "cache" on misses only, and one after "interceptors" on hits too', async () => {
    client = await createTestClient(LookupModule);
    const first = await client.client.callTool({ name: "find", arguments: { q: "a" } });
    const second = await client.client.callTool({ name: "find", arguments: { q: "a" } });
    expect(first.structuredContent).toEqual({ q: "a", runs: 1 });
    expect(second.structuredContent).toEqual({ q: "a", runs: 1 });
    expect(seen).toEqual(["around:a", "aaInside:a", "around:a"]);
    expect(client.app.stats().operations.find).toMatchObject({ cacheHits: 1, cacheMisses: 1 });
  });
});
